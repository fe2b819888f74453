// Package historytest builds a store of real releases for the tests of the
// history and of the surfaces that serve it: the sample's leaderboard
// version cut to eight models (sample.SmallLeaderboard), edited from one
// release to the next as upstream data changes (a figure moved, a row made
// unstable and so excluded, then restored, a new configuration, a new GPU),
// with the upstream compiled date moving with it, and one release built by
// other code from the same sources.
// Text to Image's file gets the same edits, made to one diffusion model
// (DiffusionModel), and Code Completion's a moved figure (TokenModel).
package historytest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// The model, GPU and row the edits are made to.
const (
	Model    = "qwen-3-32b"
	GPU      = "B200"
	IndexRow = "qwen-3-32b/B200/1/384"
	// NewRowID is the configuration Releases[5] adds, the B200's index
	// row from then on; NewGPU the GPU it adds.
	NewRowID = "qwen-3-32b/B200/1/448"
	NewGPU   = "H200"

	// DiffusionTask's model DiffusionModel gets the edits on GPU too:
	// DiffusionRow is its index row, up 2% from Releases[2] on, excluded
	// in Releases[3] (no energy), when DiffusionNext is the index row;
	// Releases[5] adds DiffusionNewRowID, the index row from then on, and
	// a row on NewGPU.
	DiffusionTask     = "text-to-image"
	DiffusionModel    = "flux-1-dev"
	DiffusionRow      = "flux-1-dev/text-to-image/B200/1/1/ulysses-1-ring-1"
	DiffusionNext     = "flux-1-dev/text-to-image/B200/1/2/ulysses-1-ring-1"
	DiffusionNewRowID = "flux-1-dev/text-to-image/B200/1/3/ulysses-1-ring-1"
	// TokenTask's model TokenModel's index row on GPU, TokenRow, is up 2%
	// from Releases[2] on.
	TokenTask  = "sourcegraph-fim"
	TokenModel = "qwen-3-coder-30b-a3b"
	TokenRow   = "qwen-3-coder-30b-a3b/sourcegraph-fim/B200/1/1024"
)

// Release is one release of the store, and the edit its upstream data got.
type Release struct {
	Date, Compiled string
	// Code is the generator's version.
	Code string
	// Edit says what changed upstream since the release before.
	Edit string
}

// Releases are the store's releases, by date.
var Releases = []Release{
	{"2026-03-01", "2026-02-16", "v1.0.0", "the sample as it is"},
	{"2026-03-08", "2026-02-16", "v1.1.0", "none: the same sources, other code"},
	{"2026-03-15", "2026-03-02", "v1.1.0", "the B200 index row's energy per token up 2%"},
	{"2026-03-22", "2026-03-16", "v1.1.0", "the B200 index row unstable (its average batch 100 of 384), so excluded with the cap above it"},
	{"2026-04-05", "2026-03-30", "v1.1.0", "the row restored"},
	{"2026-04-19", "2026-04-13", "v1.1.0", "a new B200 configuration (max_num_seqs 448, lower energy) and a new GPU, H200"},
}

// revisions are the generators' revisions, by version.
var revisions = map[string]string{
	"v1.0.0": "0123456789abcdef0123456789abcdef01234567",
	"v1.1.0": "89abcdef0123456789abcdef0123456789abcdef",
}

var cached struct {
	sync.Mutex
	dir string
}

// Store returns a folder holding Releases, built once per test binary:
// callers must not change it. Cleanup removes it.
func Store(tb testing.TB) string {
	tb.Helper()
	cached.Lock()
	defer cached.Unlock()
	if cached.dir != "" {
		return cached.dir
	}
	root, err := os.MkdirTemp("", "greentokens-historytest-")
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(root, "out")
	small := sample.SmallLeaderboard(tb)
	for i, r := range Releases {
		lb := catalogtest.Copy(tb, small, filepath.Join(root, "upstream-"+r.Date))
		edit(tb, lb, i, r.Compiled)
		editTasks(tb, lb, i)
		gen := format.Generator{Module: "github.com/leadgreen/greentokens", Version: r.Code, Revision: revisions[r.Code], Go: "go1.26.0"}
		_, err := build.Build(context.Background(), build.Options{
			Out: out, Date: r.Date, Retrieved: r.Date, GridYear: catalogtest.GridYear,
			Source:    fetch.Dir{Leaderboard: lb, Ember: catalogtest.SevenGrids(), Origins: fetch.DefaultOrigins()},
			Generator: &gen,
		})
		if err != nil {
			tb.Fatalf("building the history's release %s: %v", r.Date, err)
		}
	}
	cached.dir = out
	return out
}

// Cleanup removes what Store built.
func Cleanup() {
	cached.Lock()
	defer cached.Unlock()
	if cached.dir != "" {
		os.RemoveAll(filepath.Dir(cached.dir))
		cached.dir = ""
	}
}

// Main runs a package's tests and then Cleanup.
func Main(m *testing.M) {
	code := sample.Run(m)
	Cleanup()
	os.Exit(code)
}

// edit makes the leaderboard folder lb the upstream data of Releases[i],
// compiled on compiled: the index's last_updated and the newest commit's
// date say so.
func edit(tb testing.TB, lb string, i int, compiled string) {
	tb.Helper()
	editJSON(tb, filepath.Join(lb, "index.json"), func(v any) {
		v.(map[string]any)["last_updated"] = compiled
	})
	editJSON(tb, filepath.Join(lb, "commits.json"), func(v any) {
		c := v.([]any)[0].(map[string]any)
		if compiled != Releases[0].Compiled {
			c["sha"] = compiled[:4] + compiled[5:7] + compiled[8:10] + "feedface0123456789abcdef01234567"
		}
		commit := c["commit"].(map[string]any)
		for _, who := range []string{"author", "committer"} {
			commit[who].(map[string]any)["date"] = compiled + "T09:00:00Z"
		}
	})
	editJSON(tb, filepath.Join(lb, "tasks", "lm-arena-chat.json"), func(v any) {
		rows := v.(map[string]any)["configurations"].([]any)
		var base map[string]any
		for _, r := range rows {
			r := r.(map[string]any)
			if r["model_id"] == "Qwen/Qwen3-32B" && r["gpu_model"] == GPU && r["num_gpus"] == 1.0 && r["max_num_seqs"] == 384.0 {
				base = r
			}
		}
		if i >= 2 {
			base["energy_per_token_joules"] = base["energy_per_token_joules"].(float64) * 1.02
			base["energy_per_request_joules"] = base["energy_per_request_joules"].(float64) * 1.02
		}
		if i == 3 {
			base["avg_batch_size"] = 100.0
		}
		if i >= 5 {
			add := func(gpu string, seqs, energy float64) {
				r := map[string]any{}
				for k, x := range base {
					r[k] = x
				}
				r["gpu_model"], r["max_num_seqs"], r["avg_batch_size"] = gpu, seqs, seqs-8
				r["energy_per_token_joules"] = energy
				r["energy_per_request_joules"] = energy * base["avg_output_len"].(float64)
				rows = append(rows, r)
			}
			add(GPU, 448, 0.12)
			add(NewGPU, 256, 0.2)
			v.(map[string]any)["configurations"] = rows
		}
	})
}

// editTasks makes the edits of Releases[i] to DiffusionTask's and
// TokenTask's files; the files of the first two releases are the sample's.
func editTasks(tb testing.TB, lb string, i int) {
	tb.Helper()
	if i < 2 {
		return
	}
	editJSON(tb, filepath.Join(lb, "tasks", DiffusionTask+".json"), func(v any) {
		rows := v.(map[string]any)["configurations"].([]any)
		var base map[string]any
		for _, r := range rows {
			r := r.(map[string]any)
			if r["model_id"] == "black-forest-labs/FLUX.1-dev" && r["gpu_model"] == GPU && r["num_gpus"] == 1.0 && r["batch_size"] == 1.0 {
				base = r
			}
		}
		const energy = "energy_per_image_joules"
		base[energy] = base[energy].(float64) * 1.02
		if i == 3 {
			base[energy] = 0.0
		}
		if i >= 5 {
			add := func(gpu string, batch, joules float64) {
				r := map[string]any{}
				for k, x := range base {
					r[k] = x
				}
				r["gpu_model"], r["batch_size"], r[energy] = gpu, batch, joules
				rows = append(rows, r)
			}
			add(GPU, 3, 6000)
			add(NewGPU, 1, 7000)
			v.(map[string]any)["configurations"] = rows
		}
	})
	editJSON(tb, filepath.Join(lb, "tasks", TokenTask+".json"), func(v any) {
		for _, r := range v.(map[string]any)["configurations"].([]any) {
			r := r.(map[string]any)
			if r["model_id"] == "Qwen/Qwen3-Coder-30B-A3B-Instruct" && r["gpu_model"] == GPU && r["num_gpus"] == 1.0 && r["max_num_seqs"] == 1024.0 {
				for _, k := range []string{"energy_per_token_joules", "energy_per_request_joules"} {
					if x, ok := r[k].(float64); ok {
						r[k] = x * 1.02
					}
				}
			}
		}
	})
}

func editJSON(tb testing.TB, path string, f func(v any)) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatal(err)
	}
	f(v)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Publish publishes every release of Store into the bucket b, by date.
func Publish(tb testing.TB, b *bucket.Bucket) {
	tb.Helper()
	out := Store(tb)
	for _, r := range Releases {
		rel, err := store.LoadDir(context.Background(), filepath.Join(out, r.Date))
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := b.Publish(context.Background(), rel, bucket.PublishOptions{}); err != nil {
			tb.Fatalf("publishing %s: %v", r.Date, err)
		}
	}
}

// FileBucket returns the URL of a file:// bucket in a new folder of the
// test's holding every release of Store.
func FileBucket(tb testing.TB) string {
	tb.Helper()
	url := "file://" + filepath.Join(tb.TempDir(), "bucket")
	b, err := bucket.Open(context.Background(), url, bucket.Options{Create: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer b.Close()
	Publish(tb, b)
	return url
}
