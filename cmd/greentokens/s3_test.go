//go:build s3

package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gocloud.dev/blob"

	"github.com/leadgreen/greentokens/internal/versitygw"
)

// TestS3VerifyAndServe reads releases published to a real S3 server
// (versitygw on loopback) as the commands' users do: verify URL/DATE and
// URL/latest rebuild the release from the bucket's sources and pass; an
// object changed in the bucket fails verify (exit 5) naming it; serve
// --snapshots s3://... serves the release's files byte for byte as the
// folder holds them, and a release published after it started once its
// rescan of releases.json sees it.
func TestS3VerifyAndServe(t *testing.T) {
	gw := versitygw.Start(t)
	name, url := gw.NewBucket(t, gw.Addr)
	snap, _ := builtSnapshots(t)
	if code, _, stderr := runCLI(t, "publish", "--snapshot", snap, "--to", url); code != exitOK {
		t.Fatalf("publish to S3: exit %d: %s", code, stderr)
	}
	// The report names the release by the URL that verifies it again.
	dated := versitygw.URL(name+"/"+seedDate, gw.Addr)
	for _, arg := range []string{dated, versitygw.URL(name+"/latest", gw.Addr)} {
		if code, stdout, stderr := runCLI(t, "verify", arg); code != exitOK || !strings.Contains(stdout, "verify "+dated+": OK") {
			t.Errorf("verify %s: exit %d: %s%s", arg, code, stdout, stderr)
		}
	}

	cmd := exec.Command(binary(t), "serve", "--snapshots", url, "--addr", "127.0.0.1:0", "--rescan", "50ms", "--log-format", "json")
	addr, logs := startServe(t, cmd)
	get := func(path string) (int, []byte) {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	index, err := os.ReadFile(filepath.Join(snap, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code, body := get("/v1/" + seedDate + "/index"); code != http.StatusOK || !bytes.Equal(body, index) {
		t.Errorf("index.json from S3: %d, %d bytes; want the folder's %d bytes", code, len(body), len(index))
	}

	later := "2026-10-04"
	if code, _, stderr := runCLI(t, "publish", "--snapshot", buildAt(t, later, ember), "--to", url); code != exitOK {
		t.Fatalf("publish %s: exit %d: %s", later, code, stderr)
	}
	deadline := time.Now().Add(time.Minute) // a guard against a hang, not a measure of speed
	for {
		if code, body := get("/v1/snapshots"); code == http.StatusOK && bytes.Contains(body, []byte(`"date": "`+later+`"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not pick up the release published to S3 after it started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, body := get("/v1/" + later + "/models/qwen-3-32b"); code != http.StatusOK || !bytes.Contains(body, []byte(`"slug": "qwen-3-32b"`)) {
		t.Errorf("a model of the later release: %d %.200s", code, body)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	all := logs()
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v\n%s", err, all)
	}

	// An object changed in the bucket behind the publisher's back.
	bb, err := blob.OpenBucket(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer bb.Close()
	key := seedDate + "/models/qwen-3-32b.json"
	model, err := os.ReadFile(filepath.Join(snap, "models", "qwen-3-32b.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := bb.WriteAll(context.Background(), key, bytes.Replace(model, []byte("qwen-3-32b"), []byte("qwen-3-33b"), 1), nil); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCLI(t, "verify", dated); code != exitValidation || !strings.Contains(stdout+stderr, "qwen-3-32b.json") {
		t.Errorf("verify of a release with a changed object: exit %d, want %d naming it: %s%s", code, exitValidation, stdout, stderr)
	}
}
