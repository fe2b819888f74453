package bucket_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"gocloud.dev/blob"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/snapshots/verify"
	"github.com/leadgreen/greentokens/validate"
)

// publish publishes the tests' snapshot name into b, failing the test on
// an error.
func publish(t testing.TB, b *bucket.Bucket, name string, opts bucket.PublishOptions) *bucket.Result {
	t.Helper()
	res, err := b.Publish(context.Background(), release(t, name), opts)
	if err != nil {
		t.Fatalf("publishing %s: %v", name, err)
	}
	return res
}

// TestLayout publishes a release into an empty bucket: its sources by
// content, its other files under its date, each with its Content-Type and
// Cache-Control, and the two pointers, which pass their schemas.
func TestLayout(t *testing.T) {
	ctx := context.Background()
	b, bb := memBucket(t)
	rel := release(t, "A")
	res := publish(t, b, "A", bucket.PublishOptions{})

	var want []string
	for _, src := range rel.Manifest.Sources {
		want = append(want, format.ContentPath(src.SHA256))
	}
	for _, out := range rel.Manifest.Outputs {
		want = append(want, dateA+"/"+out.Path)
	}
	want = append(want, dateA+"/"+format.ManifestPath, format.LatestPath, format.ReleasesPath)
	got := keys(objects(t, bb))
	if diff := cmp.Diff(sorted(want), got); diff != "" {
		t.Errorf("the bucket's keys (-want +got):\n%s", diff)
	}
	if n := len(rel.Manifest.Sources) + len(rel.Manifest.Outputs) + 1; res.Written != n || res.Present != 0 || !res.Listed || res.Latest != rel.ID {
		t.Errorf("result %+v; want %d objects written, none present, listed, latest %v", res, n, rel.ID)
	}

	for _, tc := range []struct{ key, contentType, cache string }{
		{dateA + "/manifest.json", "application/json", bucket.CacheImmutable},
		{dateA + "/models/qwen-3-32b.json", "application/json", bucket.CacheImmutable},
		{dateA + "/pages/qwen-3-32b.md", "text/markdown; charset=utf-8", bucket.CacheImmutable},
		{format.ContentPath(rel.Source(format.EmberYearly).SHA256), "text/csv; charset=utf-8", bucket.CacheImmutable},
		{format.ContentPath(rel.Source(format.LeaderboardIndex).SHA256), "application/json", bucket.CacheImmutable},
		{format.ReleasesPath, "application/json", bucket.CachePointer},
		{format.LatestPath, "application/json", bucket.CachePointer},
	} {
		a, err := bb.Attributes(ctx, tc.key)
		if err != nil {
			t.Fatal(err)
		}
		if a.ContentType != tc.contentType || a.CacheControl != tc.cache {
			t.Errorf("%s: Content-Type %q, Cache-Control %q; want %q, %q", tc.key, a.ContentType, a.CacheControl, tc.contentType, tc.cache)
		}
	}

	rb, _ := bb.ReadAll(ctx, format.ReleasesPath)
	wantRels, _ := format.Marshal(format.Releases{Version: "1", Releases: []format.Release{rel.ID}})
	if string(rb) != string(wantRels) {
		t.Errorf("releases.json:\n%s\nwant:\n%s", rb, wantRels)
	}
	lb, _ := bb.ReadAll(ctx, format.LatestPath)
	wantLatest := fmt.Sprintf("{\n  \"version\": \"1\",\n  \"date\": %q,\n  \"manifest_sha256\": %q\n}", dateA, rel.ID.ManifestSHA256)
	if string(lb) != wantLatest {
		t.Errorf("latest.json:\n%s\nwant:\n%s", lb, wantLatest)
	}
	for name, data := range map[string][]byte{"releases.schema.json": rb, "latest.schema.json": lb} {
		if probs := validate.CheckSchema(name, name, data); len(probs) != 0 {
			t.Errorf("does not pass schemas/%s: %v", name, probs)
		}
	}
}

// TestPointerSchemas: the schemas of releases.json and latest.json refuse
// what the format does not allow.
func TestPointerSchemas(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		schema, doc string
		ok          bool
	}{
		{"releases.schema.json", `{"version": "1", "releases": []}`, true},
		{"releases.schema.json", `{"version": "1", "releases": [{"date": "2026-09-27", "manifest_sha256": "` + sum + `"}]}`, true},
		{"releases.schema.json", `{"version": "2", "releases": []}`, false},
		{"releases.schema.json", `{"version": "1"}`, false},
		{"releases.schema.json", `{"version": "1", "releases": [{"date": "2026-09-27", "manifest_sha256": "` + strings.ToUpper(sum) + `"}]}`, false},
		{"releases.schema.json", `{"version": "1", "releases": [{"date": "2026-13-27", "manifest_sha256": "` + sum + `"}]}`, false},
		{"releases.schema.json", `{"version": "1", "releases": [], "signed": true}`, false},
		{"latest.schema.json", `{"version": "1", "date": "2026-09-27", "manifest_sha256": "` + sum + `"}`, true},
		{"latest.schema.json", `{"version": "1", "date": "2026-09-27"}`, false},
		{"latest.schema.json", `{"version": "1", "date": "2026-09-27", "manifest_sha256": "` + sum + `", "url": "x"}`, false},
	} {
		probs := validate.CheckSchema(tc.schema, "doc", []byte(tc.doc))
		if ok := len(probs) == 0; ok != tc.ok {
			t.Errorf("%s %s: valid %v, want %v (%v)", tc.schema, tc.doc, ok, tc.ok, probs)
		}
	}
}

// TestRepublishIsANoOp: the same release again writes nothing and changes
// no byte of the bucket.
func TestRepublishIsANoOp(t *testing.T) {
	b, bb := memBucket(t)
	publish(t, b, "A", bucket.PublishOptions{})
	before := objects(t, bb)
	res := publish(t, b, "A", bucket.PublishOptions{})
	if res.Written != 0 || res.Bytes != 0 || res.Listed || res.Present != len(before)-2 {
		t.Errorf("the second publish: %+v; want nothing written, %d objects present, not listed again", res, len(before)-2)
	}
	if diff := cmp.Diff(before, objects(t, bb)); diff != "" {
		t.Errorf("the second publish changed the bucket:\n%s", diff)
	}
}

// TestOtherBytesRefused: another release of a published date is refused
// (exit 6) before anything is written, whether the first one is listed
// in releases.json or only claimed the date (its manifest).
func TestOtherBytesRefused(t *testing.T) {
	ctx := context.Background()
	for _, listed := range []bool{true, false} {
		t.Run(fmt.Sprintf("listed=%v", listed), func(t *testing.T) {
			b, bb := memBucket(t)
			if listed {
				publish(t, b, "A", bucket.PublishOptions{})
			} else {
				mb, _ := os.ReadFile(filepath.Join(snapshot(t, "A"), format.ManifestPath))
				if err := bb.WriteAll(ctx, dateA+"/"+format.ManifestPath, mb, nil); err != nil {
					t.Fatal(err)
				}
			}
			before := objects(t, bb)
			_, err := b.Publish(ctx, release(t, "Other"), bucket.PublishOptions{})
			if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "nothing written") {
				t.Fatalf("publishing another release of %s: %v; want an ErrConflict saying nothing was written", dateA, err)
			}
			if diff := cmp.Diff(before, objects(t, bb)); diff != "" {
				t.Errorf("the refused publish changed the bucket:\n%s", diff)
			}
		})
	}
}

// TestObjectWithOtherBytesRefused: a release whose date it claimed but
// one of whose objects holds other bytes (a hand-edited bucket) is
// refused before anything more is written, naming the object.
func TestObjectWithOtherBytesRefused(t *testing.T) {
	ctx := context.Background()
	b, bb := memBucket(t)
	rel := release(t, "A")
	mb, _ := os.ReadFile(filepath.Join(snapshot(t, "A"), format.ManifestPath))
	bb.WriteAll(ctx, dateA+"/"+format.ManifestPath, mb, nil)
	idx, _ := os.ReadFile(filepath.Join(snapshot(t, "A"), format.IndexPath))
	bb.WriteAll(ctx, dateA+"/"+format.IndexPath, append(idx[:len(idx)-1:len(idx)-1], ' '), nil)
	before := objects(t, bb)
	_, err := b.Publish(ctx, rel, bucket.PublishOptions{})
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), dateA+"/"+format.IndexPath) {
		t.Fatalf("publishing over a changed index.json: %v; want an ErrConflict naming it", err)
	}
	if diff := cmp.Diff(before, objects(t, bb)); diff != "" {
		t.Errorf("the refused publish changed the bucket:\n%s", diff)
	}
}

// TestPartialPublishCompletes: a bucket holding part of a release (as a
// publish that stopped leaves it) is completed by the next publish, which
// writes only what is missing.
func TestPartialPublishCompletes(t *testing.T) {
	ctx := context.Background()
	full, fullBB := memBucket(t)
	publish(t, full, "A", bucket.PublishOptions{})
	want := objects(t, fullBB)

	b, bb := memBucket(t)
	kept := 0
	for i, key := range keys(want) {
		if i%3 != 0 || key == format.ReleasesPath || key == format.LatestPath {
			continue
		}
		data, _ := fullBB.ReadAll(ctx, key)
		bb.WriteAll(ctx, key, data, nil)
		kept++
	}
	res := publish(t, b, "A", bucket.PublishOptions{})
	if res.Present != kept || res.Written != len(want)-2-kept || !res.Listed {
		t.Errorf("completing: %+v; want %d present, %d written, listed", res, kept, len(want)-2-kept)
	}
	if diff := cmp.Diff(want, objects(t, bb)); diff != "" {
		t.Errorf("the completed bucket differs from one published at once:\n%s", diff)
	}
}

// TestSourcesShared: a second release built from the same sources writes
// none of them again; releases.json lists both by date and latest.json
// names the later; publishing the earlier date afterwards lists it
// without moving latest.json back.
func TestSourcesShared(t *testing.T) {
	ctx := context.Background()
	a, b := release(t, "A"), release(t, "B")
	for _, order := range [][]string{{"A", "B"}, {"B", "A"}} {
		t.Run(strings.Join(order, ","), func(t *testing.T) {
			bk, bb := memBucket(t)
			publish(t, bk, order[0], bucket.PublishOptions{})
			res := publish(t, bk, order[1], bucket.PublishOptions{})
			if res.Present != len(b.Manifest.Sources) {
				t.Errorf("the second release found %d objects present, want its %d sources", res.Present, len(b.Manifest.Sources))
			}
			if res.Latest != b.ID {
				t.Errorf("latest.json names %v, want %v", res.Latest, b.ID)
			}
			content := 0
			for key := range objects(t, bb) {
				if strings.HasPrefix(key, format.ContentDir) {
					content++
				}
			}
			if content != len(a.Manifest.Sources) {
				t.Errorf("%d content objects, want %d: one per source, shared", content, len(a.Manifest.Sources))
			}
			rels, err := bk.Releases(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]format.Release{a.ID, b.ID}, rels.Releases); diff != "" {
				t.Errorf("releases.json (-want +got):\n%s", diff)
			}
			latest, err := bk.Latest(ctx)
			if err != nil || latest.Release != b.ID {
				t.Errorf("latest.json: %+v, %v; want %v", latest, err, b.ID)
			}
		})
	}
}

// TestReadFromBucket: a published release reads from the bucket through
// the same code as from a folder: store.Load, the checker, verify's
// rebuild, and fs.FS's own tests; each source through its content object.
func TestReadFromBucket(t *testing.T) {
	ctx := context.Background()
	b, bb := memBucket(t)
	local := release(t, "A")
	publish(t, b, "A", bucket.PublishOptions{})
	entries, err := b.Entries(ctx)
	if err != nil || len(entries) != 1 || entries[0].Date != dateA {
		t.Fatalf("Entries: %v, %v", entries, err)
	}
	fsys := b.FS(dateA)
	rel, err := store.Load(ctx, fsys, b.Name(dateA))
	if err != nil {
		t.Fatal(err)
	}
	if rel.ID != local.ID || len(rel.Models) != len(local.Models) || rel.Name() != "mem://test/"+dateA {
		t.Errorf("loaded %v (%d models) named %s; want %v (%d models)", rel.ID, len(rel.Models), rel.Name(), local.ID, len(local.Models))
	}
	if err := validate.Check(ctx, fsys); err != nil {
		t.Errorf("the checker on the bucket's release: %v", err)
	}
	rep, err := verify.Verify(ctx, b.FS(dateA))
	if err != nil || rep.Err() != nil {
		t.Errorf("verify of the bucket's release: %v, %v: %+v", err, rep.Err(), rep)
	}
	var files []string
	for _, f := range append(local.Manifest.Outputs, local.Manifest.Sources[0].File) {
		files = append(files, f.Path)
	}
	if err := fstest.TestFS(b.FS(dateA), append(files, format.ManifestPath)...); err != nil {
		t.Error(err)
	}

	// Each source is read from its content object, through the manifest:
	// changed there, the release does not load, and the error names the source.
	src := local.Source(format.LeaderboardIndex)
	bb.WriteAll(ctx, format.ContentPath(src.SHA256), []byte("{}"), nil)
	_, err = store.Load(ctx, b.FS(dateA), b.Name(dateA))
	var fe *store.FileError
	if !errors.As(err, &fe) || fe.File.Path != src.Path {
		t.Errorf("Load with %s changed in its content object: %v; want a FileError naming it", src.Path, err)
	}
}

// TestManifestHeldToReleasesJSON: a manifest changed in the bucket after
// its release was listed is not read as the release.
func TestManifestHeldToReleasesJSON(t *testing.T) {
	ctx := context.Background()
	b, bb := memBucket(t)
	publish(t, b, "A", bucket.PublishOptions{})
	other, _ := os.ReadFile(filepath.Join(snapshot(t, "Other"), format.ManifestPath))
	bb.WriteAll(ctx, dateA+"/"+format.ManifestPath, other, nil)
	if _, err := b.Entries(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := store.Load(ctx, b.FS(dateA), b.Name(dateA))
	if err == nil || !strings.Contains(err.Error(), "not the "+release(t, "A").ID.ManifestSHA256+" that mem://test/releases.json lists") {
		t.Errorf("Load of a release whose manifest changed: %v", err)
	}
}

// TestLatestAndDates: Release resolves latest and a listed date, and
// refuses a date that is not listed.
func TestLatestAndDates(t *testing.T) {
	ctx := context.Background()
	b, _ := memBucket(t)
	if _, err := b.Release(ctx, bucket.Latest); !errors.Is(err, failure.ErrUsage) {
		t.Errorf("latest of an empty bucket: %v; want ErrUsage", err)
	}
	publish(t, b, "A", bucket.PublishOptions{})
	publish(t, b, "B", bucket.PublishOptions{})
	for name, want := range map[string]string{bucket.Latest: dateB, dateA: dateA, dateB: dateB} {
		r, err := b.Release(ctx, name)
		if err != nil || r.Date != want {
			t.Errorf("Release(%s): %v, %v; want %s", name, r, err, want)
		}
	}
	if _, err := b.Release(ctx, "2026-09-28"); !errors.Is(err, failure.ErrUsage) {
		t.Errorf("a date not published: %v; want ErrUsage", err)
	}
}

// TestInvalidPointerRefused: a releases.json that breaks its rules is
// refused by a reader (exit 5) and not written over by a publisher
// (exit 6).
func TestInvalidPointerRefused(t *testing.T) {
	ctx := context.Background()
	sum := strings.Repeat("0", 64)
	for _, doc := range []string{
		`{"version": "1", "releases": [{"date": "2026-10-04", "manifest_sha256": "` + sum + `"}, {"date": "2026-09-27", "manifest_sha256": "` + sum + `"}]}`,
		`{"version": "1", "releases": [{"date": "2026-10-04", "manifest_sha256": "` + sum + `", "extra": 1}]}`,
		`{"version": "1", "releases": [{"date": "2026-10-04", "manifest_sha256": "XYZ"}]}`,
		`{"version": "1", "releases": []} {}`,
		`{"version": "1"}`,
	} {
		b, bb := memBucket(t)
		bb.WriteAll(ctx, format.ReleasesPath, []byte(doc), nil)
		if _, err := b.Entries(ctx); !errors.Is(err, failure.ErrValidation) {
			t.Errorf("Entries of %s: %v; want ErrValidation", doc, err)
		}
		if _, err := b.Publish(ctx, release(t, "A"), bucket.PublishOptions{}); !errors.Is(err, failure.ErrConflict) || errors.Is(err, failure.ErrValidation) {
			t.Errorf("Publish over %s: %v; want ErrConflict alone", doc, err)
		}
	}
}

// TestRacingPublishers: publishers of two dates racing through one bucket
// both end in releases.json, and latest.json names the later, whatever
// the interleaving; publishers of the same release all succeed.
func TestRacingPublishers(t *testing.T) {
	ctx := context.Background()
	a, b := release(t, "A"), release(t, "B")
	for round := range 5 {
		bk, _ := memBucket(t)
		rels := []*store.Release{a, b, a, b}
		errs := make([]error, len(rels))
		var wg sync.WaitGroup
		for i, r := range rels {
			wg.Go(func() { _, errs[i] = bk.Publish(ctx, r, bucket.PublishOptions{Jobs: 2}) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d: publisher %d: %v", round, i, err)
			}
		}
		got, err := bk.Releases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]format.Release{a.ID, b.ID}, got.Releases); diff != "" {
			t.Errorf("round %d: releases.json (-want +got):\n%s", round, diff)
		}
		if l, err := bk.Latest(ctx); err != nil || l.Release != b.ID {
			t.Errorf("round %d: latest.json %+v, %v", round, l, err)
		}
	}
}

// TestSite: a site is published under DATE/site/, outside the release's
// FS; a site of another release is refused.
func TestSite(t *testing.T) {
	ctx := context.Background()
	site := t.TempDir()
	mb, _ := os.ReadFile(filepath.Join(snapshot(t, "A"), format.ManifestPath))
	os.MkdirAll(filepath.Join(site, "data"), 0o755)
	os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html>"), 0o644)
	os.WriteFile(filepath.Join(site, "site.css"), []byte("body{}"), 0o644)
	os.WriteFile(filepath.Join(site, "data", "manifest.json"), mb, 0o644)
	b, bb := memBucket(t)
	publish(t, b, "A", bucket.PublishOptions{Site: regfile.DirFS(site)})
	for key, ct := range map[string]string{dateA + "/site/index.html": "text/html; charset=utf-8", dateA + "/site/site.css": "text/css; charset=utf-8",
		dateA + "/site/data/manifest.json": "application/json"} {
		a, err := bb.Attributes(ctx, key)
		if err != nil || a.ContentType != ct || a.CacheControl != bucket.CacheImmutable {
			t.Errorf("%s: %+v, %v", key, a, err)
		}
	}
	if _, err := b.FS(dateA).Open("site/index.html"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the release's FS opens its site: %v", err)
	}
	if err := validate.Check(ctx, b.FS(dateA)); err != nil {
		t.Errorf("the checker on a release published with its site: %v", err)
	}

	other, _ := os.ReadFile(filepath.Join(snapshot(t, "Other"), format.ManifestPath))
	os.WriteFile(filepath.Join(site, "data", "manifest.json"), other, 0o644)
	b2, _ := memBucket(t)
	if _, err := b2.Publish(ctx, release(t, "A"), bucket.PublishOptions{Site: regfile.DirFS(site)}); !errors.Is(err, failure.ErrUsage) ||
		!strings.Contains(err.Error(), "another release") {
		t.Errorf("a site of another release: %v", err)
	}
}

// TestFolderBucket: a file:// bucket, published to by two publishers of
// two dates at once, ends with both releases (its folder's lock makes
// them take turns), and reads back as a release.
func TestFolderBucket(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "releases")
	url := "file://" + dir
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, name := range []string{"A", "B"} {
		wg.Go(func() {
			b, err := bucket.Open(ctx, url, bucket.Options{Create: true})
			if err != nil {
				errs[i] = err
				return
			}
			defer b.Close()
			_, errs[i] = b.Publish(ctx, release(t, name), bucket.PublishOptions{})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	b, err := bucket.Open(ctx, url, bucket.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rels, err := b.Releases(ctx)
	if err != nil || len(rels.Releases) != 2 {
		t.Fatalf("releases.json: %+v, %v", rels, err)
	}
	if _, err := store.Load(ctx, b.FS(dateB), b.Name(dateB)); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, dateA, "sources")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder holds %s/sources: %v", dateA, err)
	}
	if _, err := os.Stat(filepath.Join(dir, store.LockFile)); err != nil {
		t.Errorf("no lock file in the bucket's folder: %v", err)
	}
	for name, want := range map[string]string{bucket.Latest: dateB, dateA: dateA} {
		ob, r, err := bucket.OpenRelease(ctx, url+"/"+name, bucket.Options{})
		if err != nil || r.Date != want {
			t.Errorf("OpenRelease(%s/%s): %+v, %v; want %s", url, name, r, err, want)
			continue
		}
		if _, err := store.Load(ctx, ob.FS(r.Date), ob.Name(r.Date)); err != nil {
			t.Error(err)
		}
		ob.Close()
	}
	if _, _, err := bucket.OpenRelease(ctx, url+"/2026-09-28", bucket.Options{}); !errors.Is(err, failure.ErrUsage) {
		t.Errorf("OpenRelease of a date not published: %v; want ErrUsage", err)
	}
	if _, err := bucket.Open(ctx, "file://"+filepath.Join(dir, "missing"), bucket.Options{}); !errors.Is(err, failure.ErrUsage) {
		t.Errorf("a missing folder: %v", err)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// testSwap: a pointer's write is a compare-and-swap on the version read,
// for a new object and an existing one; other writes to the key in
// between make it fail with ErrLost and change nothing.
func testSwap(t *testing.T, b *bucket.Bucket, bb *blob.Bucket) {
	t.Helper()
	ctx := context.Background()
	const key = format.LatestPath
	_, absent, err := b.ReadPointer(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := bb.WriteAll(ctx, key, []byte("a"), nil); err != nil {
		t.Fatal(err)
	}
	if err := b.SwapPointer(ctx, key, []byte("x"), absent); !errors.Is(err, bucket.ErrLost) {
		t.Errorf("a swap of an absent pointer that another wrote meanwhile: %v; want ErrLost", err)
	}
	got, v, err := b.ReadPointer(ctx, key)
	if err != nil || string(got) != "a" {
		t.Fatalf("the pointer holds %q, %v; want a", got, err)
	}
	if err := b.SwapPointer(ctx, key, []byte("b"), v); err != nil {
		t.Errorf("a swap on the version read: %v", err)
	}
	if err := b.SwapPointer(ctx, key, []byte("c"), v); !errors.Is(err, bucket.ErrLost) {
		t.Errorf("a second swap on the version read before the first: %v; want ErrLost", err)
	}
	if got, _, _ := b.ReadPointer(ctx, key); string(got) != "b" {
		t.Errorf("the pointer holds %q, want b", got)
	}
}

func TestSwap(t *testing.T) {
	b, bb := memBucket(t)
	testSwap(t, b, bb)
}

// TestFolderBucketRefusesIrregularFiles: in a file:// bucket, a FIFO or a
// symbolic link where an object should be is refused, never opened (a
// FIFO would block the read past any deadline).
func TestFolderBucketRefusesIrregularFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := bucket.Open(ctx, "file://"+dir, bucket.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	publish(t, b, "A", bucket.PublishOptions{})
	model := filepath.Join(dir, dateA, "models", "qwen-3-32b.json")
	for name, plant := range map[string]func() error{
		"named pipe":    func() error { return syscall.Mkfifo(model, 0o644) },
		"symbolic link": func() error { return os.Symlink(filepath.Join(dir, dateA, "index.json"), model) },
	} {
		os.Remove(model)
		if err := plant(); err != nil {
			t.Fatal(err)
		}
		_, err := store.Load(ctx, b.FS(dateA), b.Name(dateA))
		var nr *regfile.NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), name) || errors.Is(err, bucket.ErrStore) {
			t.Errorf("a %s in the bucket: %v; want a NotRegularError", name, err)
		}
	}
}
