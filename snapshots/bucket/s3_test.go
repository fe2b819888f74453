//go:build s3

package bucket_test

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/testbin"
	"github.com/leadgreen/greentokens/internal/versitygw"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/snapshots/verify"
	"github.com/leadgreen/greentokens/validate"
)

// openS3 opens the bucket at url, failing the test on an error.
func openS3(t *testing.T, url string) *bucket.Bucket {
	t.Helper()
	b, err := bucket.Open(context.Background(), url, bucket.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// rawS3 opens the bucket at url with gocloud.dev alone, to look at it.
func rawS3(t *testing.T, url string) *blob.Bucket {
	t.Helper()
	bb, err := blob.OpenBucket(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bb.Close() })
	return bb
}

// assertLatest checks what a bucket's pointers promise: every release
// releases.json lists is complete (every file its manifest lists is in
// the bucket with its size and sha256); latest.json names the release of
// date (none when date is ""), which releases.json lists and which
// verifies from the bucket (verify's rebuild from the content objects,
// byte for byte, and the checker).
func assertLatest(t *testing.T, url, date string) {
	t.Helper()
	ctx := context.Background()
	b := openS3(t, url)
	rels, err := b.Releases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rels.Releases {
		if _, err := store.Load(ctx, b.FS(r.Date), b.Name(r.Date)); err != nil {
			t.Errorf("releases.json lists %s, which is not complete: %v", r.Date, err)
		}
	}
	l, err := b.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if date == "" {
		if l != nil {
			t.Errorf("latest.json names %s; want none", l.Date)
		}
		return
	}
	if l == nil || l.Date != date {
		t.Fatalf("latest.json: %+v; want %s", l, date)
	}
	listed, err := b.Release(ctx, date)
	if err != nil || listed != l.Release {
		t.Fatalf("releases.json lists %+v, %v; latest.json names %+v", listed, err, l.Release)
	}
	rep, err := verify.Verify(ctx, b.FS(date))
	if err != nil || rep.Err() != nil {
		var text bytes.Buffer
		if rep != nil {
			rep.WriteText(&text)
		}
		t.Errorf("the latest release does not verify from the bucket: %v, %v\n%s", err, rep.Err(), text.String())
	}
}

// TestS3PublishAndRead publishes two releases to versitygw and reads them
// back as readers do; the objects carry their headers; the same release
// again is a no-op.
func TestS3PublishAndRead(t *testing.T) {
	gw := versitygw.Start(t)
	ctx := context.Background()
	_, url := gw.NewBucket(t, gw.Addr)
	b := openS3(t, url)
	a := release(t, "A")
	start := time.Now()
	res, err := b.Publish(ctx, a, bucket.PublishOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("published the sample release to versitygw in %v: %d objects, %d bytes", time.Since(start).Round(time.Millisecond), res.Written, res.Bytes)
	start = time.Now()
	assertLatest(t, url, dateA)
	t.Logf("verified it from the bucket in %v", time.Since(start).Round(time.Millisecond))

	if res, err := b.Publish(ctx, a, bucket.PublishOptions{}); err != nil || res.Written != 0 || res.Listed {
		t.Errorf("the same release again: %+v, %v; want nothing written", res, err)
	}
	if res, err := b.Publish(ctx, release(t, "B"), bucket.PublishOptions{}); err != nil || res.Present != len(a.Manifest.Sources) {
		t.Errorf("the later release: %+v, %v; want its %d sources present", res, err, len(a.Manifest.Sources))
	}
	assertLatest(t, url, dateB)
	if err := validate.Check(ctx, b.FS(dateA)); err != nil {
		t.Errorf("the checker on the earlier release in the bucket: %v", err)
	}

	bb := rawS3(t, url)
	for _, tc := range []struct{ key, contentType, cache string }{
		{dateA + "/pages/qwen-3-32b.md", "text/markdown; charset=utf-8", bucket.CacheImmutable},
		{format.ContentPath(a.Source(format.EmberYearly).SHA256), "text/csv; charset=utf-8", bucket.CacheImmutable},
		{format.ReleasesPath, "application/json", bucket.CachePointer},
	} {
		attrs, err := bb.Attributes(ctx, tc.key)
		if err != nil || attrs.ContentType != tc.contentType || attrs.CacheControl != tc.cache {
			t.Errorf("%s: %+v, %v; want %s, %s", tc.key, attrs, err, tc.contentType, tc.cache)
		}
	}
	testSwap(t, b, bb)
}

// TestS3RacingPublishers races two publishers, each with its own client:
// of the same release, both succeed; of two releases of one date, exactly
// one wins and the other is refused (exit 6); of two dates, both end in
// releases.json and latest.json names the later.
func TestS3RacingPublishers(t *testing.T) {
	gw := versitygw.Start(t)
	ctx := context.Background()
	a, b, other := release(t, "A"), release(t, "B"), release(t, "Other")
	for round := range 3 {
		for _, tc := range []struct {
			name string
			rels [2]*store.Release
		}{{"same release", [2]*store.Release{a, a}}, {"same date", [2]*store.Release{a, other}}, {"two dates", [2]*store.Release{a, b}}} {
			_, url := gw.NewBucket(t, gw.Addr)
			var errs [2]error
			var wg sync.WaitGroup
			for i, r := range tc.rels {
				bk := openS3(t, url)
				wg.Go(func() { _, errs[i] = bk.Publish(ctx, r, bucket.PublishOptions{}) })
			}
			wg.Wait()
			rels, err := openS3(t, url).Releases(ctx)
			if err != nil {
				t.Fatal(err)
			}
			switch tc.name {
			case "same release":
				if errs[0] != nil || errs[1] != nil || !cmp.Equal(rels.Releases, []format.Release{a.ID}) {
					t.Errorf("round %d, %s: %v; releases %v", round, tc.name, errs, rels.Releases)
				}
				assertLatest(t, url, dateA)
			case "same date":
				won := 1
				if errs[1] != nil {
					won = 0
				}
				lost := errs[1-won]
				if errs[won] != nil || !errors.Is(lost, failure.ErrConflict) {
					t.Errorf("round %d, %s: %v; want one success and one ErrConflict", round, tc.name, errs)
					continue
				}
				if !cmp.Equal(rels.Releases, []format.Release{tc.rels[won].ID}) {
					t.Errorf("round %d, %s: releases.json lists %v; want the winner's %v", round, tc.name, rels.Releases, tc.rels[won].ID)
				}
				assertLatest(t, url, dateA)
			case "two dates":
				if errs[0] != nil || errs[1] != nil || !cmp.Equal(rels.Releases, []format.Release{a.ID, b.ID}) {
					t.Errorf("round %d, %s: %v; releases %v", round, tc.name, errs, rels.Releases)
				}
				assertLatest(t, url, dateB)
			}
		}
	}
}

// faultCase publishes B through a proxy that does f, onto a bucket that
// holds A, with ctx; then checks that the pointers promise only complete,
// verified releases, and that a publish without the fault completes B.
func faultCase(t *testing.T, f *fault, ctx context.Context) (hits int, err error) {
	t.Helper()
	gw := versitygw.Start(t)
	p := newProxy(t, gw.Addr)
	name, url := gw.NewBucket(t, p.addr())
	if _, err := openS3(t, url).Publish(context.Background(), release(t, "A"), bucket.PublishOptions{}); err != nil {
		t.Fatal(err)
	}
	f.marker = []byte("PUT /" + name + "/" + string(f.marker))
	p.arm(f)
	_, err = openS3(t, url).Publish(ctx, release(t, "B"), bucket.PublishOptions{})
	hits = p.count()
	p.arm(nil)
	if err == nil {
		assertLatest(t, url, dateB)
	} else {
		assertLatest(t, url, dateA)
	}
	if _, err := openS3(t, url).Publish(context.Background(), release(t, "B"), bucket.PublishOptions{}); err != nil {
		t.Fatalf("the publish after the fault: %v", err)
	}
	assertLatest(t, url, dateB)
	return hits, err
}

// TestS3DroppedConnection: the connection cut mid-upload of an object (64
// KB into the request of index.json, 94 KB). The driver retries it, or the publish fails with
// ErrStore; either way the pointers promise only complete releases, and
// a publish run again completes the release.
func TestS3DroppedConnection(t *testing.T) {
	hits, err := faultCase(t, &fault{marker: []byte(dateB + "/" + format.IndexPath), kind: faultDrop, after: 64 << 10, times: 1}, context.Background())
	if hits != 1 {
		t.Fatalf("the proxy cut %d connections, want 1", hits)
	}
	if err != nil && !errors.Is(err, bucket.ErrStore) {
		t.Errorf("the publish whose connection was cut: %v; want it retried, or an ErrStore", err)
	}
	t.Logf("a connection cut mid-upload: %v", err)
}

// TestS3ServerError: a 500 from the store for one request is retried by
// the driver and the publish succeeds; a 500 for every attempt at one
// object fails the publish with ErrStore, the pointers untouched.
func TestS3ServerError(t *testing.T) {
	t.Run("once", func(t *testing.T) {
		hits, err := faultCase(t, &fault{marker: []byte(dateB + "/" + format.GridPath), kind: fault500, times: 1}, context.Background())
		if hits != 1 || err != nil {
			t.Errorf("one 500 (%d answered): %v; want the driver to retry and the publish to succeed", hits, err)
		}
	})
	t.Run("every attempt", func(t *testing.T) {
		hits, err := faultCase(t, &fault{marker: []byte(dateB + "/" + format.GridPath), kind: fault500}, context.Background())
		if hits < 2 || !errors.Is(err, bucket.ErrStore) {
			t.Errorf("a 500 for every attempt (%d answered): %v; want the driver's retries, then ErrStore", hits, err)
		}
	})
}

// TestS3SlowStore: the store stalls on one object; the publish's deadline
// ends it (ErrStore wrapping context.DeadlineExceeded), the pointers
// untouched.
func TestS3SlowStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	hits, err := faultCase(t, &fault{marker: []byte(dateB + "/" + format.IndexPath), kind: faultStall}, ctx)
	if hits < 1 || !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, bucket.ErrStore) {
		t.Errorf("a stalled store (%d stalled): %v; want ErrStore wrapping context.DeadlineExceeded", hits, err)
	}
}

var command testbin.Builder

// TestS3KilledPublish kills the command (SIGKILL) at each step of a
// publish of B onto a bucket that holds A: after the claim, between
// objects, after the read back, between the pointers, after them. Each
// leaves latest.json naming a complete, verified release (A, or B once
// latest.json was written), and the publish run again completes B.
func TestS3KilledPublish(t *testing.T) {
	gw := versitygw.Start(t)
	bin := command.For(t, snaptest.Root, "../../cmd/greentokens")
	b := release(t, "B")
	outputs := len(b.Manifest.Outputs) // B's sources are A's: only its outputs are written
	points := []string{crashtest.Claimed, crashtest.Uploaded + ":1", crashtest.Uploaded + ":" + strconv.Itoa(outputs/2),
		crashtest.Uploaded + ":" + strconv.Itoa(outputs), crashtest.ReadBack, crashtest.Listed, crashtest.Pointed}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			_, url := gw.NewBucket(t, gw.Addr)
			if _, err := openS3(t, url).Publish(context.Background(), release(t, "A"), bucket.PublishOptions{}); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "publish", "--snapshot", snapshot(t, "B"), "--to", url)
			cmd.Env = append(cmd.Environ(), crashtest.KillEnv+"="+point)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the publish was not killed at %s: %v\n%s", point, err, out)
			}
			if point == crashtest.Pointed {
				assertLatest(t, url, dateB)
			} else {
				assertLatest(t, url, dateA)
			}
			rerun := exec.Command(bin, "publish", "--snapshot", snapshot(t, "B"), "--to", url)
			if out, err := rerun.CombinedOutput(); err != nil {
				t.Fatalf("the publish after the kill at %s: %v\n%s", point, err, out)
			}
			assertLatest(t, url, dateB)
		})
	}

	t.Run("first release", func(t *testing.T) {
		_, url := gw.NewBucket(t, gw.Addr)
		cmd := exec.Command(bin, "publish", "--snapshot", snapshot(t, "A"), "--to", url)
		cmd.Env = append(cmd.Environ(), crashtest.KillEnv+"="+crashtest.Uploaded+":3")
		if err := cmd.Run(); err == nil {
			t.Fatal("the publish was not killed")
		}
		assertLatest(t, url, "")
		if out, err := exec.Command(bin, "publish", "--snapshot", snapshot(t, "A"), "--to", url).CombinedOutput(); err != nil {
			t.Fatalf("the publish after the kill: %v\n%s", err, out)
		}
		assertLatest(t, url, dateA)
	})
}

// TestS3LargeObjectWrittenOnce: an object larger than the driver's part
// size (8 MiB: a multipart upload, as Ember's CSV of 16 to 50 MB is)
// written IfNotExist by two writers at once is written once, whole, with
// the winner's bytes; the loser's write fails its precondition, as the
// publish relies on.
func TestS3LargeObjectWrittenOnce(t *testing.T) {
	gw := versitygw.Start(t)
	ctx := context.Background()
	_, url := gw.NewBucket(t, gw.Addr)
	bb := rawS3(t, url)
	datas := [2][]byte{bytes.Repeat([]byte("a"), 20<<20), bytes.Repeat([]byte("b"), 20<<20)}
	var errs [2]error
	var wg sync.WaitGroup
	for i := range datas {
		wg.Go(func() { errs[i] = bb.WriteAll(ctx, "large", datas[i], &blob.WriterOptions{IfNotExist: true}) })
	}
	wg.Wait()
	won := 0
	if errs[0] != nil {
		won = 1
	}
	if errs[won] != nil || gcerrors.Code(errs[1-won]) != gcerrors.FailedPrecondition {
		t.Fatalf("two IfNotExist writes of 20 MiB at once: %v; want one success and one failed precondition", errs)
	}
	got, err := bb.ReadAll(ctx, "large")
	if err != nil || !bytes.Equal(got, datas[won]) {
		t.Errorf("the object is not the winner's bytes whole (%d bytes): %v", len(got), err)
	}
	if err := bb.WriteAll(ctx, "large", datas[1-won], &blob.WriterOptions{IfNotExist: true}); gcerrors.Code(err) != gcerrors.FailedPrecondition {
		t.Errorf("a later IfNotExist write: %v; want a failed precondition", err)
	}
}
