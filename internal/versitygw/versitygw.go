// Package versitygw runs versitygw, a real S3 server, on 127.0.0.1 for the
// tests that publish to and read from S3 (the "s3" build tag, make s3):
// the pinned version, whose conditional writes are atomic, serving a new
// posix folder with its metadata (never --nometa, which makes every key
// look absent), started once per test binary under a random root key.
// Without it a test that needs it fails, saying how to install it.
package versitygw

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob" // s3:// URLs
)

const (
	module = "github.com/versity/versitygw"
	// Version is the pinned versitygw.
	Version = "v1.8.0"
	install = "go install github.com/versity/versitygw/cmd/versitygw@" + Version
)

// Gateway is a versitygw serving a posix folder on 127.0.0.1.
type Gateway struct {
	Addr        string // host:port
	key, secret string
	err         error
	stop        func()
}

var (
	the     = sync.OnceValue(start)
	started atomic.Bool
)

// Start returns the test binary's gateway, starting it the first time,
// with this process's environment set for the S3 client (and any command
// it starts) to reach it: its root key as the AWS credentials, no shared
// config or instance metadata. It fails the test when versitygw cannot be
// run.
func Start(t testing.TB) *Gateway {
	t.Helper()
	started.Store(true)
	gw := the()
	if gw.err != nil {
		t.Fatal(gw.err)
	}
	none := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": gw.key, "AWS_SECRET_ACCESS_KEY": gw.secret, "AWS_SESSION_TOKEN": "",
		"AWS_CONFIG_FILE": none, "AWS_SHARED_CREDENTIALS_FILE": none, "AWS_PROFILE": "",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_REGION": "us-east-1",
	} {
		t.Setenv(k, v)
	}
	return gw
}

// Stop stops the gateway, if a test started it, and removes its folder:
// TestMain calls it after the tests.
func Stop() {
	if started.Load() {
		if gw := the(); gw.stop != nil {
			gw.stop()
		}
	}
}

var bucketCount atomic.Int32

// NewBucket creates a new bucket in the gateway and returns its name and
// URL through addr (the gateway's, or a proxy's in front of it).
func (gw *Gateway) NewBucket(t testing.TB, addr string) (name, url string) {
	t.Helper()
	name = fmt.Sprintf("gt-%d-%s", bucketCount.Add(1), randomHex(4))
	bb, err := blob.OpenBucket(context.Background(), URL(name, gw.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer bb.Close()
	var c *s3.Client
	if !bb.As(&c) {
		t.Fatal("the s3 driver gave no client")
	}
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("creating the bucket %s: %v", name, err)
	}
	return name, URL(name, addr)
}

// URL is the s3:// URL of the bucket name through addr.
func URL(name, addr string) string {
	return "s3://" + name + "?endpoint=http://" + addr + "&use_path_style=true&region=us-east-1"
}

// Counter is a TCP proxy on 127.0.0.1 in front of the gateway that counts
// the bytes it carries each way, for the benchmarks' bytes sent and
// received.
type Counter struct {
	ln             net.Listener
	target         string
	sent, received atomic.Int64
}

// Counter starts a counting proxy in front of the gateway, closed when
// the test ends.
func (gw *Gateway) Counter(t testing.TB) *Counter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &Counter{ln: ln, target: gw.Addr}
	go c.serve()
	t.Cleanup(func() { ln.Close() })
	return c
}

// Addr is the proxy's address, for URL.
func (c *Counter) Addr() string { return c.ln.Addr().String() }

// Sent is the bytes from the clients to the gateway so far; Received, from
// the gateway to the clients.
func (c *Counter) Sent() int64     { return c.sent.Load() }
func (c *Counter) Received() int64 { return c.received.Load() }

// Reset sets both counts to zero.
func (c *Counter) Reset() { c.sent.Store(0); c.received.Store(0) }

func (c *Counter) serve() {
	for {
		client, err := c.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", c.target)
		if err != nil {
			client.Close()
			continue
		}
		go func() {
			io.Copy(counting{server, &c.sent}, client)
			server.Close()
		}()
		go func() {
			io.Copy(counting{client, &c.received}, server)
			client.Close()
		}()
	}
}

// counting writes to w, adding the bytes written to n as it goes.
type counting struct {
	w io.Writer
	n *atomic.Int64
}

func (c counting) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n.Add(int64(k))
	return k, err
}

// binary finds the versitygw binary on PATH or in GOPATH/bin, and checks
// that it is the pinned version.
func binary() (string, error) {
	bin, err := exec.LookPath("versitygw")
	if err != nil {
		gopath, _ := exec.Command("go", "env", "GOPATH").Output()
		bin = filepath.Join(strings.TrimSpace(string(gopath)), "bin", "versitygw")
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("versitygw is not installed (not on PATH, not in GOPATH/bin): the S3 tests need it; install it with %s", install)
		}
	}
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		return "", fmt.Errorf("reading the version of %s: %v", bin, err)
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "mod" && f[1] == module {
			if f[2] != Version {
				return "", fmt.Errorf("%s is versitygw %s; the S3 tests pin %s: install it with %s", bin, f[2], Version, install)
			}
			return bin, nil
		}
	}
	return "", fmt.Errorf("%s is not a build of %s; install it with %s", bin, module, install)
}

// start starts versitygw on a free loopback port with a random root key,
// serving a new folder, until Stop.
func start() *Gateway {
	bin, err := binary()
	if err != nil {
		return &Gateway{err: err}
	}
	root, err := os.MkdirTemp("", "greentokens-versitygw-")
	if err != nil {
		return &Gateway{err: err}
	}
	gw := &Gateway{key: "gt" + randomHex(8), secret: randomHex(20)}
	for range 5 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return &Gateway{err: err}
		}
		gw.Addr = ln.Addr().String()
		ln.Close()
		var logs bytes.Buffer
		cmd := exec.Command(bin, "--port", gw.Addr, "--access", gw.key, "--secret", gw.secret, "--quiet", "posix", root)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			return &Gateway{err: fmt.Errorf("starting versitygw: %v", err)}
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if waitListening(gw.Addr, exited) {
			gw.stop = func() { cmd.Process.Kill(); <-exited; os.RemoveAll(root) }
			return gw
		}
		cmd.Process.Kill()
		<-exited
		gw.err = fmt.Errorf("versitygw did not start on %s:\n%s", gw.Addr, logs.String())
	}
	os.RemoveAll(root)
	return gw
}

// waitListening waits for addr to accept connections, for at most 200
// tries 25 ms apart, or until the process exits.
func waitListening(addr string, exited <-chan struct{}) bool {
	for range 200 {
		select {
		case <-exited:
			return false
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return true
		}
		time.Sleep(25 * time.Millisecond)
	}
	return false
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
