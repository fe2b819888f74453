package grid

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Reader streams Ember's yearly CSV in two steps, so that the archive can
// be named after the file's layout: NewReader reads the header, which
// tells the layout, and Stream reads the rest, writing every byte, the
// header's too, to the archive it is given.
type Reader struct {
	tee  io.Reader
	n    countWriter
	hold heldWriter
	p    *parser
	sc   *csvScanner
}

// NewReader reads the header of the CSV in r. The bytes it reads are held
// until Stream writes them to the archive.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{}
	rd.tee = io.TeeReader(r, io.MultiWriter(&rd.n, &rd.hold))
	p, sc, err := start(bufio.NewReaderSize(newLineBound(rd.tee), readBuffer))
	if err != nil {
		return nil, err
	}
	rd.p, rd.sc = p, sc
	return rd, nil
}

// Layout is the layout the header tells.
func (rd *Reader) Layout() Layout { return rd.p.cols.layout }

// Header is the file's header, column for column.
func (rd *Reader) Header() []string { return rd.p.cols.header }

// Stream writes the bytes read so far to archive, then reads the rest of
// the CSV, writing it to archive as it goes, and returns the table and the
// number of bytes read. Call it once. The archive gets the published bytes
// themselves, not a compressed form: a compressor's output may change with
// its version, and an auditor must be able to rebuild the snapshot byte for
// byte years later. A write error on archive ends the stream with that
// error; what was written to archive is then incomplete.
func (rd *Reader) Stream(archive io.Writer) (*Table, int64, error) {
	if err := rd.hold.to(archive); err != nil {
		return nil, 0, fmt.Errorf("ember: reading: %w", err)
	}
	t, err := rd.p.run(rd.sc)
	if err != nil {
		return nil, 0, err
	}
	// The parser reads to the end of the input; make sure of it.
	if _, err := io.Copy(io.Discard, rd.tee); err != nil {
		return nil, 0, fmt.Errorf("ember: reading: %w", err)
	}
	return t, int64(rd.n), nil
}

// heldWriter holds what is written to it until to names the writer it
// passes everything to from then on.
type heldWriter struct {
	held bytes.Buffer
	w    io.Writer
}

func (h *heldWriter) Write(p []byte) (int, error) {
	if h.w == nil {
		return h.held.Write(p)
	}
	return h.w.Write(p)
}

func (h *heldWriter) to(w io.Writer) error {
	h.w = w
	_, err := w.Write(h.held.Bytes())
	h.held = bytes.Buffer{}
	return err
}
