package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

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
	// lazy, when set, computes the value each time it is read (value), for
	// a list too large to hold beside the others: index.json's.
	lazy func() *jnode
}

// value is n, or the value a lazy n computes, kept by no one.
func (n *jnode) value() *jnode {
	if n.lazy != nil {
		return n.lazy()
	}
	return n
}

func jnull() *jnode               { return &jnode{kind: jNull, text: "null"} }
func jstr(s string) *jnode        { return &jnode{kind: jStr, text: s} }
func jnum(text string) *jnode     { return &jnode{kind: jNum, text: text} }
func jint(n int) *jnode           { return jnum(strconv.Itoa(n)) }
func jarr(elems ...*jnode) *jnode { return &jnode{kind: jArr, vals: elems} }
func jbool(b bool) *jnode         { return &jnode{kind: jBool, text: strconv.FormatBool(b)} }

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

// pick is a new object of n's members keys, in that order, without those n
// lacks.
func pick(n *jnode, keys ...string) *jnode {
	out := jobj()
	for _, k := range keys {
		if v := n.get(k); v != nil {
			out.set(k, v)
		}
	}
	return out
}

// str returns the string value of an object's member key, or "".
func (n *jnode) str(key string) string {
	if v := n.get(key); v != nil && v.kind == jStr {
		return v.text
	}
	return ""
}

// show renders a value for a message: strings quoted and long ones cut, a
// short list or object of scalars as compact JSON, else by its size or
// row_id.
func (n *jnode) show() string {
	n = n.value()
	flat := n.kind >= jArr && len(n.vals) <= 8 && !slices.ContainsFunc(n.vals, func(v *jnode) bool { return v.kind >= jArr })
	var compact bytes.Buffer
	switch {
	case flat && json.Compact(&compact, writeTree(n)) == nil && compact.Len() <= 120:
		return compact.String()
	case n.kind == jStr:
		if r := []rune(n.text); len(r) > 80 {
			return fmt.Sprintf("%q...", string(r[:80]))
		}
		return strconv.Quote(n.text)
	case n.kind == jArr:
		return fmt.Sprintf("an array of %d", len(n.vals))
	case n.kind == jObj && n.str("row_id") != "":
		return "an object (row_id " + n.str("row_id") + ")"
	case n.kind == jObj:
		return "an object"
	}
	return n.text
}

// describe renders a value with its kind, for a message.
func (n *jnode) describe() string {
	if n.kind == jObj || n.kind == jArr || n.kind == jNull {
		return n.show()
	}
	return n.kind.String() + " " + n.show()
}

// errAfterValue is parseTree's error for data after the top-level value.
var errAfterValue = errors.New("data after the top-level value")

// parseTree decodes one JSON value, keeping key order (a key given twice
// twice, for the comparison to name) and number text.
func parseTree(data []byte) (*jnode, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, errAfterValue
	}
	return n, nil
}

// parseValue decodes the next value of dec.
func parseValue(dec *jsontext.Decoder) (*jnode, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{', '[':
		n := jobj()
		if tok.Kind() == '[' {
			n = jarr()
		}
		for k := dec.PeekKind(); k != '}' && k != ']'; k = dec.PeekKind() {
			if n.kind == jObj {
				key, err := dec.ReadToken()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key.String())
			}
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		_, err := dec.ReadToken() // '}' or ']'
		return n, err
	case '"':
		return jstr(tok.String()), nil
	case '0':
		return jnum(tok.String()), nil
	case 't', 'f':
		return jbool(tok.Bool()), nil
	}
	return jnull(), nil
}

// writeTree prints a value the way the published files are printed: two
// spaces of indentation, "key": value, no HTML escaping, no trailing newline.
func writeTree(n *jnode) []byte {
	var b bytes.Buffer
	writeValue(&b, n, 0)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, n *jnode, depth int) {
	switch n = n.value(); n.kind {
	case jStr:
		quoteJSON(b, n.text)
	case jObj, jArr:
		brackets := [...]string{jArr: "[]", jObj: "{}"}[n.kind]
		b.WriteByte(brackets[0])
		for i, v := range n.vals {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + strings.Repeat("  ", depth+1))
			if n.kind == jObj {
				quoteJSON(b, n.keys[i])
				b.WriteString(": ")
			}
			writeValue(b, v, depth+1)
		}
		if len(n.vals) > 0 {
			b.WriteString("\n" + strings.Repeat("  ", depth))
		}
		b.WriteByte(brackets[1])
	default:
		b.WriteString(n.text)
	}
}

// quoteJSON writes s to b as a JSON string without HTML escaping.
func quoteJSON(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // its newline
}

// firstDiff returns the 1-based line and column of the first byte where a
// and b differ.
func firstDiff(a, b []byte) (line, col int) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return lineCol(a, i)
}

// lineCol returns the 1-based line and byte column of offset off of data.
func lineCol(data []byte, off int) (line, col int) {
	return 1 + bytes.Count(data[:off], []byte{'\n'}), off - bytes.LastIndexByte(data[:off], '\n')
}
