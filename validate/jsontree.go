package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// jkind is the kind of a JSON value.
type jkind int

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

func (k jkind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// jnode is a JSON value that keeps what encoding/json's maps lose: the key
// order and the literal text of numbers.
type jnode struct {
	kind jkind
	text string   // bool, null and number: the literal text; string: the value
	keys []string // object keys, in order
	vals []*jnode // object values (parallel to keys) or array elements
}

func jstr(s string) *jnode        { return &jnode{kind: jStr, text: s} }
func jnum(text string) *jnode     { return &jnode{kind: jNum, text: text} }
func jint(n int) *jnode           { return jnum(fmt.Sprint(n)) }
func jarr(elems ...*jnode) *jnode { return &jnode{kind: jArr, vals: elems} }
func jbool(b bool) *jnode {
	if b {
		return &jnode{kind: jBool, text: "true"}
	}
	return &jnode{kind: jBool, text: "false"}
}

// jobj builds an object from key, value pairs.
func jobj() *jnode { return &jnode{kind: jObj} }

func (n *jnode) set(key string, v *jnode) *jnode {
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
	return n
}

// get returns an object's value for key (the first one), or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObj {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// show renders a scalar for a message; strings are quoted and long ones cut.
func (n *jnode) show() string {
	switch n.kind {
	case jStr:
		return quoteCut(n.text, 80)
	case jArr:
		return fmt.Sprintf("an array of %d", len(n.vals))
	case jObj:
		return "an object"
	}
	return n.text
}

func quoteCut(s string, max int) string {
	r := []rune(s)
	if len(r) > max {
		return fmt.Sprintf("%q...", string(r[:max]))
	}
	return fmt.Sprintf("%q", s)
}

// parseTree decodes one JSON value, keeping key order and number text.
func parseTree(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the top-level value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := jobj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.set(kt.(string), v)
			}
			_, err := dec.Token() // '}'
			return n, err
		case '[':
			n := jarr()
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.vals = append(n.vals, v)
			}
			_, err := dec.Token() // ']'
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return jstr(t), nil
	case json.Number:
		return jnum(string(t)), nil
	case bool:
		return jbool(t), nil
	case nil:
		return &jnode{kind: jNull, text: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// writeTree prints a value the way the published files are printed: two
// spaces of indentation, "key": value, no HTML escaping, no trailing newline.
func writeTree(n *jnode) []byte { return writeTreeSized(n, 0) }

// writeTreeSized is writeTree into a buffer of size bytes to start with
// (the size of the file it is compared with: most often the exact size).
func writeTreeSized(n *jnode, size int) []byte {
	var b bytes.Buffer
	b.Grow(size)
	writeValue(&b, n, 0)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, n *jnode, depth int) {
	switch n.kind {
	case jStr:
		quoteFast(b, n.text)
	case jObj, jArr:
		open, close := "{", "}"
		if n.kind == jArr {
			open, close = "[", "]"
		}
		b.WriteString(open)
		if len(n.vals) == 0 {
			b.WriteString(close)
			return
		}
		for i, v := range n.vals {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n")
			b.WriteString(strings.Repeat("  ", depth+1))
			if n.kind == jObj {
				quoteFast(b, n.keys[i])
				b.WriteString(": ")
			}
			writeValue(b, v, depth+1)
		}
		b.WriteString("\n")
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(close)
	default:
		b.WriteString(n.text)
	}
}

// quoteJSON returns s as a JSON string without HTML escaping.
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// firstDiff returns the 1-based line and column of the first byte where a
// and b differ.
func firstDiff(a, b []byte) (line, col int) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	line = bytes.Count(a[:i], []byte("\n")) + 1
	col = i - (bytes.LastIndexByte(a[:i], '\n') + 1) + 1
	return line, col
}

// decodeAfter decodes the rest of a JSON value whose first token, tok, has
// just been read from dec (which uses UseNumber), into the shape
// json.Decoder gives: map[string]any, []any, string, json.Number, bool or
// nil. It lets a streaming reader that met something other than what it
// streams (an object where an array was expected) still report it.
func decodeAfter(dec *json.Decoder, tok json.Token) (any, error) {
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		m := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("unexpected %v", kt)
			}
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			m[k] = v
		}
		_, err := dec.Token() // '}'
		return m, err
	case '[':
		a := []any{}
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// quoteFast appends s as a JSON string to b as quoteJSON prints it (no
// HTML escaping), without an encoder for the plain printable ASCII strings
// that make up most of a file.
func quoteFast(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			b.WriteString(quoteJSON(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// decodeNumbers decodes one JSON value as json.Decoder with UseNumber
// does; nil when it is not JSON.
func decodeNumbers(raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}
