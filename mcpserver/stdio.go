package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport carries MCP over newline-delimited JSON-RPC on a reader and
// a writer (stdin and stdout), and keeps serving whatever a line holds: a
// line that is not JSON is answered with a parse error (-32700), one that
// is JSON but no message (null, a number), or a batch, with an invalid
// request (-32600), and a line over MaxRequestBytes (its newline not
// counted) with a parse error; each is then skipped. At the end of the
// input, every request read is answered before the connection closes. An
// error the SDK answers without a code (a call before initialize) is sent
// as an invalid request (-32600).
type stdioTransport struct {
	in  io.Reader
	out io.Writer
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{out: t.out, lines: make(chan line), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}
	go c.readLines(bufio.NewReaderSize(t.in, 64<<10))
	return c, nil
}

type line struct {
	b       []byte
	tooLong bool
	err     error
}

type stdioConn struct {
	out     io.Writer
	writeMu sync.Mutex

	lines  chan line
	closed chan struct{}
	once   sync.Once

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // requests read and not yet answered
	answered chan struct{}       // a pending request was answered
}

// readLines sends each line of r, at most MaxRequestBytes of it besides
// its newline, until the input ends or the connection closes.
func (c *stdioConn) readLines(r *bufio.Reader) {
	for {
		var buf []byte
		tooLong := false
		var err error
		for {
			var part []byte
			part, err = r.ReadSlice('\n')
			if !tooLong {
				// Only the last part of a line holds its newline.
				if len(buf)+messageBytes(part) > MaxRequestBytes {
					tooLong, buf = true, nil
				} else {
					buf = append(buf, part...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if len(buf) > 0 || tooLong {
			select {
			case c.lines <- line{b: buf, tooLong: tooLong}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case c.lines <- line{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		switch {
		case l.err != nil:
			c.drain(ctx)
			if errors.Is(l.err, io.EOF) {
				return nil, io.EOF
			}
			return nil, l.err
		case l.tooLong:
			c.refuse(jsonrpc.CodeParseError, "the line is over "+strconv.Itoa(MaxRequestBytes)+" bytes")
			continue
		}
		b := bytes.TrimSpace(l.b)
		switch {
		case len(b) == 0:
			continue
		case !json.Valid(b):
			c.refuse(jsonrpc.CodeParseError, "the line is not JSON")
			continue
		case b[0] == '[':
			c.refuse(jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not accepted: send one message per line")
			continue
		}
		msg, err := jsonrpc.DecodeMessage(b)
		if err != nil {
			c.refuse(jsonrpc.CodeInvalidRequest, "the line is not a JSON-RPC 2.0 message")
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
}

// drain waits until every request read has been answered, or the
// connection closes.
func (c *stdioConn) drain(ctx context.Context) {
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		}
	}
}

// refuse answers a line that holds no request with an error of id null.
func (c *stdioConn) refuse(code int64, msg string) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.out.Write(append(nullIDError(code, msg), '\n'))
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		var we *jsonrpc.Error
		if resp.Error != nil && (!errors.As(resp.Error, &we) || we.Code == 0) {
			// The SDK's errors without a code are about the request (one
			// before initialize): say so with the JSON-RPC code.
			coded := *resp
			coded.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: resp.Error.Error()}
			msg = &coded
		}
		defer c.answer(resp.ID)
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.out.Write(append(b, '\n'))
	return err
}

func (c *stdioConn) answer(id jsonrpc.ID) {
	if !id.IsValid() {
		return
	}
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
	select {
	case c.answered <- struct{}{}:
	default:
	}
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) SessionID() string { return "" }
