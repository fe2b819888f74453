//go:build s3

package bucket_test

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
)

// The S3 tests run against a real S3 server, versitygw, started on
// loopback by the tests (make s3). It must be the pinned version, whose
// conditional writes are atomic; without it the tests fail, saying how to
// install it.
const (
	versitygwModule  = "github.com/versity/versitygw"
	versitygwVersion = "v1.8.0"
	versitygwInstall = "go install github.com/versity/versitygw/cmd/versitygw@" + versitygwVersion
)

// gateway is a versitygw serving a posix folder on 127.0.0.1.
type gateway struct {
	addr        string // host:port
	key, secret string
	err         error
}

var theGateway = sync.OnceValue(startGateway)

// versitygw finds the versitygw binary on PATH or in GOPATH/bin, and
// checks that it is the pinned version.
func versitygw() (string, error) {
	bin, err := exec.LookPath("versitygw")
	if err != nil {
		gopath, _ := exec.Command("go", "env", "GOPATH").Output()
		bin = filepath.Join(strings.TrimSpace(string(gopath)), "bin", "versitygw")
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("versitygw is not installed (not on PATH, not in GOPATH/bin): the S3 tests need it; install it with %s", versitygwInstall)
		}
	}
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		return "", fmt.Errorf("reading the version of %s: %v", bin, err)
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "mod" && f[1] == versitygwModule {
			if f[2] != versitygwVersion {
				return "", fmt.Errorf("%s is versitygw %s; the S3 tests pin %s: install it with %s", bin, f[2], versitygwVersion, versitygwInstall)
			}
			return bin, nil
		}
	}
	return "", fmt.Errorf("%s is not a build of %s; install it with %s", bin, versitygwModule, versitygwInstall)
}

// startGateway starts versitygw on a free loopback port with a random
// root key, serving a new folder (with metadata: never --nometa, which
// makes every key look absent). It runs until the test binary exits.
func startGateway() *gateway {
	bin, err := versitygw()
	if err != nil {
		return &gateway{err: err}
	}
	root, err := os.MkdirTemp("", "greentokens-versitygw-")
	if err != nil {
		return &gateway{err: err}
	}
	gw := &gateway{key: "gt" + randomHex(8), secret: randomHex(20)}
	for attempt := 0; attempt < 5; attempt++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return &gateway{err: err}
		}
		gw.addr = ln.Addr().String()
		ln.Close()
		var logs bytes.Buffer
		cmd := exec.Command(bin, "--port", gw.addr, "--access", gw.key, "--secret", gw.secret, "--quiet", "posix", root)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			return &gateway{err: fmt.Errorf("starting versitygw: %v", err)}
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if waitListening(gw.addr, exited) {
			atExit = append(atExit, func() { cmd.Process.Kill(); <-exited; os.RemoveAll(root) })
			return gw
		}
		cmd.Process.Kill()
		<-exited
		gw.err = fmt.Errorf("versitygw did not start on %s:\n%s", gw.addr, logs.String())
	}
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

// s3Gateway is the tests' gateway, with this process's environment set
// for the S3 client (and any command it starts) to reach it: its root key
// as the AWS credentials, no shared config or instance metadata. A test
// that needs it fails when versitygw cannot be run.
func s3Gateway(t *testing.T) *gateway {
	t.Helper()
	gw := theGateway()
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

var bucketCount atomic.Int32

// newS3Bucket creates a new bucket in the gateway and returns its URL,
// through addr (the gateway's, or a proxy's in front of it).
func newS3Bucket(t *testing.T, gw *gateway, addr string) (name, url string) {
	t.Helper()
	name = fmt.Sprintf("gt-%d-%s", bucketCount.Add(1), randomHex(4))
	bb, err := blob.OpenBucket(context.Background(), s3URL(name, gw.addr))
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
	return name, s3URL(name, addr)
}

func s3URL(name, addr string) string {
	return "s3://" + name + "?endpoint=http://" + addr + "&use_path_style=true&region=us-east-1"
}

// faultProxy is a TCP proxy on 127.0.0.1 between the S3 client and the
// gateway. Armed, it does one fault to the connections that carry a
// request whose first line starts with the fault's marker ("PUT
// /bucket/key"): it cuts the connection once that many more bytes are
// forwarded (a dropped connection mid-upload), answers 500 itself (a
// failing store), or stops forwarding and holds the connection (a stalled
// store), for at most times connections (0: every one).
type faultProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	fault *fault
	fired int
	conns []net.Conn
}

type fault struct {
	marker []byte
	kind   faultKind
	after  int // faultDrop: the bytes forwarded from the marker on
	times  int
}

type faultKind int

const (
	faultDrop faultKind = iota
	fault500
	faultStall
)

func newProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *faultProxy) addr() string { return p.ln.Addr().String() }

// arm sets the fault to do; nil disarms.
func (p *faultProxy) arm(f *fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fault, p.fired = f, 0
}

// count is how many connections the armed fault hit.
func (p *faultProxy) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fired
}

// take returns the armed fault if marker's line is one it hits, counting
// the hit.
func (p *faultProxy) take(data []byte) (*fault, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.fault
	if f == nil || (f.times > 0 && p.fired >= f.times) {
		return nil, -1
	}
	i := bytes.Index(data, f.marker)
	if i < 0 {
		return nil, -1
	}
	p.fired++
	return f, i
}

func (p *faultProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

func (p *faultProxy) track(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, cs...)
}

func (p *faultProxy) serve() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.track(client, server)
		go func() { io.Copy(client, server); client.Close() }()
		go p.forward(client, server)
	}
}

// forward copies the client's bytes to the server, watching for the
// armed fault's marker (carried over from one read to the next, so that
// a marker split between two reads is seen).
func (p *faultProxy) forward(client, server net.Conn) {
	defer server.Close()
	buf := make([]byte, 32<<10)
	var carry []byte // the last bytes forwarded, for a marker split across reads
	for {
		n, err := client.Read(buf)
		if n > 0 {
			data := append(carry, buf[:n]...)
			if f, i := p.take(data); f != nil {
				// data[:len(carry)] is forwarded already.
				from := len(carry)
				switch f.kind {
				case faultDrop:
					end := min(len(data), i+f.after)
					if end > from {
						server.Write(data[from:end])
					}
					if i+f.after <= len(data) {
						client.Close()
						return
					}
					// Forward the rest of the count, then cut.
					left := i + f.after - len(data)
					server.Write(data[end:])
					io.CopyN(server, client, int64(left))
					client.Close()
					return
				case fault500:
					if i > from {
						server.Write(data[from:i])
					}
					body := "<Error><Code>InternalError</Code><Message>injected by the test</Message></Error>"
					fmt.Fprintf(client, "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
					client.Close()
					return
				case faultStall:
					if i > from {
						server.Write(data[from:i])
					}
					io.Copy(io.Discard, client) // until the client gives up, or the proxy closes
					return
				}
			}
			if _, err := server.Write(buf[:n]); err != nil {
				client.Close()
				return
			}
			keep := min(len(data), 256)
			carry = append(carry[:0], data[len(data)-keep:]...)
		}
		if err != nil {
			return
		}
	}
}
