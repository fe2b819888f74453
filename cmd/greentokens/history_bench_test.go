package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// historyReleases is how many releases BenchmarkHistory reads.
const historyReleases = 52

// BenchmarkHistory builds historyReleases daily releases, the upstream
// data alternating between the sample's leaderboard and a copy whose
// Qwen 3 32B B200 rows use 2% more energy (so that every release changes
// a figure and every pair is diffed), publishes them to a file://
// bucket too, and times `greentokens history qwen-3-32b --json` over the
// folder and over the bucket, with the peak heap in use while it runs.
func BenchmarkHistory(b *testing.B) {
	root := b.TempDir()
	other := catalogtest.Copy(b, seedLB, filepath.Join(root, "upstream-other"))
	chat := filepath.Join(other, "tasks", "lm-arena-chat.json")
	data, err := os.ReadFile(chat)
	if err != nil {
		b.Fatal(err)
	}
	// The B200 1 x 384 row's energy per token, 2% up: one byte changed
	// in its digits is enough for another figure.
	edited := strings.Replace(string(data), `"energy_per_token_joules": 0.1405811962285976`, `"energy_per_token_joules": 0.14339282015316956`, 1)
	if edited == string(data) {
		b.Fatal("the row to edit is not in the sample")
	}
	if err := os.WriteFile(chat, []byte(edited), 0o644); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(root, "out")
	for i := range historyReleases {
		date := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)
		lb := seedLB
		if i%2 == 1 {
			lb = other
		}
		var stdout, stderr bytes.Buffer
		args := []string{"build", "--out", out, "--date", date, "--retrieved", date, "--from-leaderboard", lb,
			"--from-ember", sample.Ember(), "--grid-year", "2024"}
		if code := run(args, &stdout, &stderr); code != exitOK {
			b.Fatalf("build %s: exit %d: %s", date, code, stderr.String())
		}
	}
	url := "file://" + filepath.Join(root, "bucket")
	bk, err := bucket.Open(context.Background(), url, bucket.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	entries, err := store.Folder(out).Entries(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		rel, err := store.LoadDir(context.Background(), filepath.Join(out, e.Date))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bk.Publish(context.Background(), rel, bucket.PublishOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	bk.Close()
	for _, tc := range []struct{ name, from string }{{"folder", out}, {"bucket", url}} {
		b.Run(tc.name, func(b *testing.B) {
			var peak atomic.Uint64
			done := make(chan struct{})
			go func() {
				var ms runtime.MemStats
				for {
					select {
					case <-done:
						return
					case <-time.After(5 * time.Millisecond):
						runtime.ReadMemStats(&ms)
						if ms.HeapInuse > peak.Load() {
							peak.Store(ms.HeapInuse)
						}
					}
				}
			}()
			for b.Loop() {
				var stdout, stderr bytes.Buffer
				if code := run([]string{"history", "qwen-3-32b", "--snapshots", tc.from, "--json"}, &stdout, &stderr); code != exitOK {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
				if n := strings.Count(stdout.String(), `"change": "moved"`); n != historyReleases-1 {
					b.Fatalf("%d moves, want %d", n, historyReleases-1)
				}
			}
			close(done)
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
		})
	}
}
