package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocloud.dev/blob"

	"github.com/leadgreen/greentokens/internal/sharedblocks"
	"github.com/leadgreen/greentokens/transform/grid/gridtest"
)

// weeks is how many weekly releases BenchmarkFiftyTwoWeeks builds.
const weeks = 52

// BenchmarkFiftyTwoWeeks builds a year of weekly snapshots, weeks of them,
// from the same sources (the seeds' leaderboard version and ember-synth's
// 40 MB CSV) into one folder, dated five days apart (a build refuses a
// date after tomorrow, and the leaderboard version was compiled on
// 2026-02-16), publishes each to a file:// bucket, and reports what
// each stores: the folder's bytes on disk, a block shared by a hard link
// or a reflink counted once (folder-MB), beside the same files as copies
// (copies-MB), and the bucket's objects (bucket-MB, bucket-objects); and
// the mean time of a weekly build (build-ms) and publish (publish-ms,
// its verification included).
func BenchmarkFiftyTwoWeeks(b *testing.B) {
	csv := gridtest.SynthCSV(b, 1)
	fi, err := os.Stat(csv)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		out := b.TempDir()
		dir := filepath.Join(b.TempDir(), "bucket")
		url := "file://" + dir
		var build, publish time.Duration
		for i := range weeks {
			date := time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 5*i).Format(time.DateOnly)
			var stdout, stderr bytes.Buffer
			start := time.Now()
			if code := run([]string{"build", "--out", out, "--date", date, "--retrieved", "2026-02-16", "--from-leaderboard", seedLB,
				"--from-ember", csv, "--grid-year", "2024"}, &stdout, &stderr); code != exitOK {
				b.Fatalf("build %s: exit %d: %s", date, code, stderr.String())
			}
			build += time.Since(start)
			start = time.Now()
			if code := run([]string{"publish", "--snapshot", filepath.Join(out, date), "--to", url}, &stdout, &stderr); code != exitOK {
				b.Fatalf("publish %s: exit %d: %s", date, code, stderr.String())
			}
			publish += time.Since(start)
		}
		stored, copies, err := sharedblocks.Usage(out)
		if err != nil {
			b.Fatal(err)
		}
		objects, size := bucketSize(b, url)
		b.ReportMetric(float64(stored)/1e6, "folder-MB")
		b.ReportMetric(float64(copies)/1e6, "copies-MB")
		b.ReportMetric(float64(size)/1e6, "bucket-MB")
		b.ReportMetric(float64(objects), "bucket-objects")
		b.ReportMetric(float64(fi.Size())/1e6, "csv-MB")
		b.ReportMetric(float64(build.Milliseconds())/weeks, "build-ms")
		b.ReportMetric(float64(publish.Milliseconds())/weeks, "publish-ms")
	}
}

// bucketSize is the number of objects in the bucket at url and the sum of
// their sizes.
func bucketSize(b *testing.B, url string) (objects int, size int64) {
	bb, err := blob.OpenBucket(context.Background(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer bb.Close()
	it := bb.List(nil)
	for {
		obj, err := it.Next(context.Background())
		if err == io.EOF {
			return objects, size
		}
		if err != nil {
			b.Fatal(err)
		}
		objects++
		size += obj.Size
	}
}
