package bucket_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/internal/versitygw"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// TestMain runs the tests, then stops the S3 tests' gateway, if they
// started it, and removes the snapshots built once.
func TestMain(m *testing.M) {
	code := sample.Run(m)
	versitygw.Stop()
	if dir, err := snaptest.Root(); err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// The dates of the tests' releases: the seeds', and a week later.
const (
	dateA = snaptest.SeedDate
	dateB = "2026-10-04"
)

// The tests' snapshots, built once per test binary from the small
// leaderboard version (sample.SmallLeaderboard): A, the seeds' release
// date; B, the same sources a week later (the same archived bytes, so the
// same content objects); Other, A's date from other Ember data (another
// release of A's date, whose grid.json is seven areas).
var snapshots = sync.OnceValues(func() (map[string]string, error) {
	root, err := snaptest.Root()
	if err != nil {
		return nil, err
	}
	lb, err := sample.Small()
	if err != nil {
		return nil, err
	}
	src := snaptest.SourceOf(lb)
	other := snaptest.OtherSource()
	other.Leaderboard = lb
	dirs := map[string]string{}
	for _, s := range []struct {
		name, date string
		src        fetch.Dir
	}{{"A", dateA, src}, {"B", dateB, src}, {"Other", dateA, other}} {
		gen := snaptest.Generator
		res, err := build.Build(context.Background(), build.Options{Out: filepath.Join(root, "bucket-"+s.name), Date: s.date,
			Retrieved: snaptest.SeedFetched, Source: s.src, Generator: &gen})
		if err != nil {
			return nil, err
		}
		dirs[s.name] = res.Dir
	}
	return dirs, nil
})

// snapshot is the folder of the tests' snapshot name (A, B or Other).
func snapshot(t testing.TB, name string) string {
	t.Helper()
	dirs, err := snapshots()
	if err != nil {
		t.Fatal(err)
	}
	return dirs[name]
}

// release loads the tests' snapshot name.
func release(t testing.TB, name string) *store.Release {
	t.Helper()
	return snaptest.Load(t, snapshot(t, name))
}

// memBucket is a new bucket in memory.
func memBucket(t testing.TB) (*bucket.Bucket, *blob.Bucket) {
	t.Helper()
	bb := memblob.OpenBucket(nil)
	t.Cleanup(func() { bb.Close() })
	return bucket.New(context.Background(), bb, "mem://test", bucket.Options{}), bb
}

// objects returns every object of bb with the sha256 of its bytes, by key.
func objects(t testing.TB, bb *blob.Bucket) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	it := bb.List(nil)
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := bb.ReadAll(ctx, obj.Key)
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		out[obj.Key] = hex.EncodeToString(s[:])
	}
	return out
}

// keys are the keys of objs, sorted.
func keys(objs map[string]string) []string {
	ks := make([]string, 0, len(objs))
	for k := range objs {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
