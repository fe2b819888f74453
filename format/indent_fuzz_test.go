package format

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// genValue builds a value to marshal from src: nested lists and maps,
// strings of any bytes, numbers of every kind, json.RawMessage (valid,
// with white space inside and around), structs with omitempty.
type genValue struct {
	src   []byte
	depth int
}

func (g *genValue) byte() byte {
	if len(g.src) == 0 {
		return 0
	}
	c := g.src[0]
	g.src = g.src[1:]
	return c
}

func (g *genValue) str() string {
	n := int(g.byte() % 24)
	if n > len(g.src) {
		n = len(g.src)
	}
	s := string(g.src[:n])
	g.src = g.src[n:]
	return s
}

type omitStruct struct {
	A string            `json:"a,omitempty"`
	B []any             `json:"b,omitempty"`
	C map[string]any    `json:"c,omitempty"`
	D *int              `json:"d,omitempty"`
	E Float             `json:"e"`
	F json.RawMessage   `json:"f,omitempty"`
	G []string          `json:"g"`
	H map[string]string `json:"h"`
}

func (g *genValue) value() any {
	if g.depth > 12 {
		return nil
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.byte() % 16 {
	case 0:
		return nil
	case 1:
		return g.str()
	case 2:
		var b [8]byte
		for i := range b {
			b[i] = g.byte()
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = math.Copysign(0, -1)
		}
		return f
	case 3:
		return Float(float64(int8(g.byte())) * math.Pow10(int(int8(g.byte()))%30))
	case 4:
		return int64(g.byte())<<56 | int64(g.byte())
	case 5:
		return uint64(math.MaxUint64) - uint64(g.byte())
	case 6:
		n := int(g.byte() % 5)
		l := make([]any, n)
		for i := range l {
			l[i] = g.value()
		}
		return l
	case 7:
		n := int(g.byte() % 5)
		m := map[string]any{}
		for range n {
			m[g.str()] = g.value()
		}
		return m
	case 8: // a raw message: any bytes that are valid JSON, or JSON with spaces
		s := g.str()
		ws := []string{"", " ", "\n\t ", "\r\n"}[g.byte()%4]
		inner := g.value()
		b, err := json.Marshal(inner)
		if err != nil {
			return nil
		}
		if json.Valid([]byte(s)) {
			return json.RawMessage(ws + s + ws)
		}
		var ind bytes.Buffer // valid JSON with white space inside
		_ = json.Indent(&ind, b, ws, "\t")
		return json.RawMessage(ws + ind.String() + ws)
	case 9:
		return []any{}
	case 10:
		return map[string]any{}
	case 11:
		return []string(nil)
	case 12:
		return map[string]int(nil)
	case 13:
		st := omitStruct{A: g.str(), E: Float(float64(g.byte()) / 7)}
		if g.byte()%2 == 0 {
			st.B = []any{g.value()}
			st.C = map[string]any{g.str(): g.value()}
		}
		if g.byte()%2 == 0 {
			st.F = json.RawMessage(" [ 1 , { \"x\" : \"\u2028\xff\" } ] ")
		}
		return st
	case 14:
		return json.Number([]string{"0", "-0", "1e400", "-1.5E-300", "123456789012345678901234567890", "0.000"}[g.byte()%6])
	default:
		return g.byte()%2 == 0
	}
}

// checkMarshalAsStd fails unless Marshal and encoding/json's indentation
// agree on v: the same bytes, or both an error.
func checkMarshalAsStd(t *testing.T, v any) {
	t.Helper()
	got, err := Marshal(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	stdErr := enc.Encode(v)
	if (err != nil) != (stdErr != nil) {
		t.Fatalf("Marshal error %v, encoding/json's %v", err, stdErr)
	}
	if err == nil && !bytes.Equal(got, bytes.TrimSuffix(b.Bytes(), []byte("\n"))) {
		t.Fatalf("Marshal differs from encoding/json:\n%q\nwant\n%q", got, b.Bytes())
	}
	// index.json's list encoder.
	if l, ok := v.([]any); ok && len(l) > 0 {
		var got, want bytes.Buffer
		errL := encodeList(newListEncoder(&got), l)
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("  ", "  ")
		errW := enc.Encode(l)
		if (errL != nil) != (errW != nil) {
			t.Fatalf("encodeList error %v, encoding/json's %v", errL, errW)
		}
		if errL == nil && !bytes.Equal(got.Bytes(), bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("encodeList differs from encoding/json:\n%q\nwant\n%q", got.Bytes(), want.Bytes())
		}
	}
}

func FuzzMarshalIndent(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 64 {
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
	}
	f.Add([]byte(strings.Repeat("\x06\x01", 40)))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkMarshalAsStd(t, (&genValue{src: src}).value())
	})
}

// TestMarshalIndentRandom: random values, as FuzzMarshalIndent's seeds.
func TestMarshalIndentRandom(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 500
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range n {
		b := make([]byte, 64+r.IntN(512))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		checkMarshalAsStd(t, (&genValue{src: b}).value())
	}
}
