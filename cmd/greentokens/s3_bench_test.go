//go:build s3

package main

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/internal/versitygw"
	"github.com/leadgreen/greentokens/transform/grid/gridtest"
)

// BenchmarkS3PublishAndVerify publishes one release (the seeds'
// leaderboard version and ember-synth's 40 MB CSV) to a new bucket of a
// real S3 server (versitygw on loopback), then verifies it from the
// bucket, through a proxy that counts the bytes: the time of each
// (publish-ms includes publish's own verification of the folder), the
// bytes the publish sends and the verify receives.
func BenchmarkS3PublishAndVerify(b *testing.B) {
	gw := versitygw.Start(b)
	csv := gridtest.SynthCSV(b, 1)
	out := b.TempDir()
	date := "2026-09-27"
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "--out", out, "--date", date, "--retrieved", "2026-09-26", "--from-leaderboard", seedLB,
		"--from-ember", csv, "--grid-year", "2024"}, &stdout, &stderr); code != exitOK {
		b.Fatalf("build: exit %d: %s", code, stderr.String())
	}
	proxy := gw.Counter(b)
	for b.Loop() {
		name, _ := gw.NewBucket(b, gw.Addr)
		proxy.Reset()
		start := time.Now()
		if code := run([]string{"publish", "--snapshot", filepath.Join(out, date), "--to", versitygw.URL(name, proxy.Addr())}, &stdout, &stderr); code != exitOK {
			b.Fatalf("publish: exit %d: %s", code, stderr.String())
		}
		publish, sent, back := time.Since(start), proxy.Sent(), proxy.Received()
		proxy.Reset()
		start = time.Now()
		if code := run([]string{"verify", versitygw.URL(name+"/"+date, proxy.Addr())}, &stdout, &stderr); code != exitOK {
			b.Fatalf("verify: exit %d: %s%s", code, stdout.String(), stderr.String())
		}
		b.ReportMetric(float64(publish.Milliseconds()), "publish-ms")
		b.ReportMetric(float64(sent)/1e6, "publish-sent-MB")
		b.ReportMetric(float64(back)/1e6, "publish-received-MB")
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "verify-ms")
		b.ReportMetric(float64(proxy.Received())/1e6, "verify-received-MB")
	}
}

// BenchmarkS3ServeThirtyReleases serves the releases snapshots of
// BenchmarkServeThirtyReleases from a bucket of a real S3 server
// (versitygw on loopback) they were published to (serveReleases).
func BenchmarkS3ServeThirtyReleases(b *testing.B) {
	gw := versitygw.Start(b)
	root, dates := thirtyReleases(b)
	_, url := gw.NewBucket(b, gw.Addr)
	for _, d := range dates {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"publish", "--snapshot", filepath.Join(root, d), "--to", url}, &stdout, &stderr); code != exitOK {
			b.Fatalf("publish %s: exit %d: %s", d, code, stderr.String())
		}
	}
	serveReleases(b, url, dates)
}
