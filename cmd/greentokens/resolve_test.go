package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// publishedBucket publishes the snapshot folder snap to a new file://
// bucket and returns the bucket's URL and folder.
func publishedBucket(t *testing.T, snap string) (url, dir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "releases")
	url = "file://" + dir
	if code, _, stderr := runCLI(t, "publish", "--snapshot", snap, "--to", url); code != exitOK {
		t.Fatalf("publish: exit %d: %s", code, stderr)
	}
	return url, dir
}

// TestReadFromBucket: every read command reads a release published to a
// bucket as it reads the folder it was published from (URL/DATE,
// URL/latest, the bucket's URL alone), with the same output; verify and
// rebuild rebuild it from the bucket's sources.
func TestReadFromBucket(t *testing.T) {
	endToEnd(t)
	snap, _ := builtSnapshots(t)
	url, _ := publishedBucket(t, snap)
	dated := url + "/" + seedDate
	for _, tc := range []struct {
		name string
		args []string // the snapshot is appended, or follows --snapshot
		flag bool
	}{
		{"list models", []string{"list", "models", "--json"}, true},
		{"list grids", []string{"list", "grids"}, true},
		{"carbon", []string{"carbon", "qwen-3-32b", "India", "Norway"}, true},
		{"render", []string{"render", "qwen-3-32b"}, true},
		{"diff", []string{"diff", "--json", snap}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			with := func(s string) []string {
				if tc.flag {
					return append(append([]string{}, tc.args...), "--snapshot", s)
				}
				return append(append([]string{}, tc.args...), s)
			}
			code, want, stderr := runCLI(t, with(snap)...)
			if code != exitOK {
				t.Fatalf("from the folder: exit %d: %s", code, stderr)
			}
			for _, arg := range []string{dated, url + "/latest", url} {
				code, got, stderr := runCLI(t, with(arg)...)
				if code != exitOK {
					t.Fatalf("from %s: exit %d: %s", arg, code, stderr)
				}
				// diff names the folders it read; the rest is the same.
				got = strings.ReplaceAll(got, dated, snap)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("from %s: the output differs from the folder's (-folder +bucket):\n%s", arg, diff)
				}
				if says := strings.Contains(stderr, "the release latest.json names"); says != (arg != dated) {
					t.Errorf("from %s: stderr %q; want it to name the release read only when the URL names none", arg, stderr)
				}
			}
		})
	}

	t.Run("verify", func(t *testing.T) {
		code, stdout, stderr := runCLI(t, "verify", url+"/latest")
		if code != exitOK || !strings.Contains(stdout, "verify "+dated+": OK") {
			t.Errorf("verify URL/latest: exit %d: %s%s", code, stdout, stderr)
		}
	})

	t.Run("rebuild", func(t *testing.T) {
		out := t.TempDir()
		code, stdout, stderr := runCLI(t, "rebuild", dated, "--out", out)
		if code != exitOK || !strings.Contains(stdout, "byte-identical") {
			t.Fatalf("rebuild URL/DATE: exit %d: %s%s", code, stdout, stderr)
		}
		if same, d, err := store.SameFiles(os.DirFS(snap), os.DirFS(filepath.Join(out, seedDate))); err != nil || !same {
			t.Errorf("the rebuild from the bucket is not the folder's snapshot: %s %v", d, err)
		}
	})

	t.Run("site", func(t *testing.T) {
		fromDir, fromBucket := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
		for _, tc := range [][2]string{{snap, fromDir}, {dated, fromBucket}} {
			if code, _, stderr := runCLI(t, "site", "--snapshot", tc[0], "--out", tc[1]); code != exitOK {
				t.Fatalf("site --snapshot %s: exit %d: %s", tc[0], code, stderr)
			}
		}
		if same, d, err := store.SameFiles(os.DirFS(fromDir), os.DirFS(fromBucket)); err != nil || !same {
			t.Errorf("the site from the bucket differs from the folder's: %s %v", d, err)
		}
	})
}

// TestReadFromBucketRefuses: a release the bucket does not list, a URL
// with a secret and a release whose object was changed in the bucket are
// refused, with the exit codes of a folder's.
func TestReadFromBucketRefuses(t *testing.T) {
	endToEnd(t)
	snap, _ := builtSnapshots(t)
	url, dir := publishedBucket(t, snap)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a date not published", []string{"verify", url + "/2030-01-01"}, exitUsage, "lists no release 2030-01-01"},
		{"an empty bucket", []string{"list", "models", "--snapshot", "file://" + t.TempDir()}, exitUsage, "nothing is published there"},
		{"a secret in the URL", []string{"diff", snap, "s3://b/" + seedDate + "?secret_access_key=x"}, exitUsage, "carries a secret"},
		{"a path on a cloud URL", []string{"verify", "s3://b/releases"}, exitUsage, "has a path"},
		{"serve one release", []string{"serve", "--snapshots", url + "/" + seedDate, "--addr", "127.0.0.1:0"}, exitUsage, "names one release"},
		{"mcp one release", []string{"mcp", "--snapshots", url + "/latest"}, exitUsage, "names one release"},
		{"publish a bucket's release", []string{"publish", "--snapshot", url + "/" + seedDate, "--to", "mem://"}, exitUsage, "publish publishes a snapshot folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d saying %q: %s", code, tc.code, tc.want, stderr)
			}
			if strings.Contains(stderr, "secret_access_key=x") {
				t.Errorf("the message prints the secret: %s", stderr)
			}
		})
	}

	// A model file changed in the bucket is refused by every reader: its
	// size and sha256 are not the manifest's.
	model := filepath.Join(dir, seedDate, "models", "qwen-3-32b.json")
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, bytes.Replace(data, []byte(`"qwen-3-32b"`), []byte(`"qwen-3-33b"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", url + "/" + seedDate}, {"list", "models", "--snapshot", url}} {
		if code, stdout, stderr := runCLI(t, args...); code != exitValidation || !strings.Contains(stdout+stderr, "qwen-3-32b.json") {
			t.Errorf("%q on a changed model file: exit %d, want %d naming it: %s%s", args, code, exitValidation, stdout, stderr)
		}
	}
}

// TestNewestInFolder: a read command given a folder of dated snapshots
// reads its newest and says so; a folder holding none is refused.
func TestNewestInFolder(t *testing.T) {
	snap, _ := builtSnapshots(t)
	out := filepath.Dir(snap)
	code, want, _ := runCLI(t, "list", "models", "--snapshot", snap)
	if code != exitOK {
		t.Fatal(code)
	}
	code, got, stderr := runCLI(t, "list", "models", "--snapshot", out)
	if code != exitOK || got != want || stderr != "using "+snap+", the newest snapshot under "+out+"\n" {
		t.Errorf("list --snapshot OUT: exit %d, %q, %q", code, got, stderr)
	}
	code, _, stderr = runCLI(t, "list", "models", "--snapshot", t.TempDir())
	if code != exitUsage || !strings.Contains(stderr, "holds no dated snapshot") {
		t.Errorf("list --snapshot EMPTY: exit %d: %s", code, stderr)
	}
}

// TestServeStoreOfBucket: serve's and mcp's --snapshots URL is the bucket
// as a store, its releases the ones releases.json lists, loaded into the
// catalog as a folder's are.
func TestServeStoreOfBucket(t *testing.T) {
	endToEnd(t)
	snap, _ := builtSnapshots(t)
	url, _ := publishedBucket(t, snap)
	e := &env{ctx: t.Context(), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	defer func() {
		for _, fn := range e.exits {
			fn()
		}
	}()
	st, err := openStore(e, url)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.OpenStore(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	folder, err := catalog.Open(filepath.Dir(snap), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(folder.Dates(), cat.Dates()); diff != "" || len(cat.Dates()) != 1 {
		t.Fatalf("served dates (-folder +bucket):\n%s", diff)
	}
	a, _ := folder.Snapshot(catalog.Latest)
	b, _ := cat.Snapshot(catalog.Latest)
	if diff := cmp.Diff(a.Paths(), b.Paths()); diff != "" {
		t.Errorf("files held (-folder +bucket):\n%s", diff)
	}
	for _, p := range a.Paths() {
		fa, _ := a.File(p)
		fb, _ := b.File(p)
		if !bytes.Equal(fa.Bytes, fb.Bytes) {
			t.Errorf("%s differs between the folder and the bucket", p)
		}
	}
	if _, err := fs.Stat(st.FS(seedDate), format.ManifestPath); err != nil {
		t.Errorf("the bucket's release: %v", err)
	}
}

// TestServeBucketProcess runs serve --snapshots URL over a file:// bucket:
// it serves the published release, and, once a later release is
// published, picks it up at a rescan of releases.json; mcp --snapshots URL
// answers from the same releases.
func TestServeBucketProcess(t *testing.T) {
	snap, _ := builtSnapshots(t)
	url, _ := publishedBucket(t, snap)
	cmd := exec.Command(binary(t), "serve", "--snapshots", url, "--addr", "127.0.0.1:0", "--rescan", "50ms", "--log-format", "json")
	addr, logs := startServe(t, cmd)
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/v1/" + seedDate + "/models/qwen-3-32b"); code != 200 || !strings.Contains(body, `"slug": "qwen-3-32b"`) {
		t.Errorf("a model of the bucket's release: %d %.200s", code, body)
	}

	later := "2026-10-04"
	if code, _, stderr := runCLI(t, "publish", "--snapshot", buildAt(t, later, ember), "--to", url); code != exitOK {
		t.Fatalf("publish %s: exit %d: %s", later, code, stderr)
	}
	deadline := time.Now().Add(time.Minute) // a guard against a hang, not a measure of speed
	for {
		if code, body := get("/v1/snapshots"); code == 200 && strings.Contains(body, `"date": "`+later+`"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not pick up the release published after it started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, body := get("/" + later + "/models/qwen-3-32b.html"); code != 200 || !strings.Contains(body, "Qwen") {
		t.Errorf("the later release's site: %d", code)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	all := logs()
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v\n%s", err, all)
	}

	mcpCmd := exec.Command(binary(t), "mcp", "--snapshots", url, "--rescan", "0")
	var stderr strings.Builder
	mcpCmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: mcpCmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_model", Arguments: map[string]any{"model": "qwen-3-32b", "snapshot": later}})
	if err != nil || res.IsError {
		t.Errorf("mcp get_model from the bucket: %+v, %v\n%s", res, err, &stderr)
	}
	cs.Close()
}
