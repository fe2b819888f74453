package validate

import (
	"encoding/json"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/internal/jsonvalid"
)

// instanceDecoder turns JSON text that is already known to be valid (checked
// by json.Valid or jsontext, or returned whole by a json.Decoder or a
// jsontext.Decoder) into the tree the
// schema library validates: map[string]any, []any, string, bool, nil and
// json.Number. It decodes what jsonschema.UnmarshalJSON decodes (the last
// of duplicate keys wins, strings unescaped and invalid UTF-8 replaced as
// encoding/json does), only faster: one pass, no reflection, the text
// copied once into a string whose slices are the tree's strings, numbers
// and keys (a string with an escape or a byte over 0x7f that is not valid
// UTF-8 is decoded by encoding/json).
//
// (Handing the library int64 for integral literals was measured too: it
// still makes a big.Rat of each, and saved nothing measurable.)
type instanceDecoder struct {
	keys map[string]string // interned object keys
	// members and elems are stacks of the members and elements of the
	// objects and lists being decoded: each is made at its size once its
	// end is found, not grown.
	members []member
	elems   []any
	// own copies each string and number out of the text (keys are copied
	// when interned), for a tree whose values outlive it: a slice would
	// keep the whole text alive.
	own bool
	// placed is where the values at the fast pass's placed sites are in a
	// file (nil: nowhere): each is left a null in the tree, and its text
	// appended to raws (placed.go).
	placed *siteNode
	raws   []rawSite
	// orders are the sorted keys of the objects the fast pass last wrote
	// the canonical form of (checkonce.go), kept from file to file.
	orders keyOrders
}

func newInstanceDecoder() *instanceDecoder {
	return &instanceDecoder{keys: map[string]string{}}
}

// decoders are instance decoders to reuse: a file's keys are mostly the
// keys of the files before it, found interned (each model file, and each
// row of a task file, had filled a new map with the same few dozen).
var decoders = sync.Pool{New: func() any { return newInstanceDecoder() }}

// maxInterned is the most keys a pooled decoder keeps interned.
const maxInterned = 4096

// getDecoder returns a decoder from the pool, to give back (release)
// once its trees are no longer used.
func getDecoder() *instanceDecoder { return decoders.Get().(*instanceDecoder) }

// release gives d back to the pool.
func (d *instanceDecoder) release() {
	if len(d.keys) > maxInterned {
		clear(d.keys)
	}
	clear(d.raws)
	d.raws, d.placed, d.own = d.raws[:0], nil, false
	decoders.Put(d)
}

// decode decodes data, valid JSON holding one value.
func (d *instanceDecoder) decode(data []byte) any { return d.decodeAt(data, nil) }

// decodeAt decodes data, valid JSON holding one value found at n in a
// file.
func (d *instanceDecoder) decodeAt(data []byte, n *siteNode) any {
	s := string(data)
	v, _ := d.valueAt(s, skipSpace(s, 0), n)
	return v
}

func skipSpace(b string, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// value decodes the value at b[i:] and returns it and the index after it.
func (d *instanceDecoder) value(b string, i int) (any, int) { return d.valueAt(b, i, nil) }

// valueAt is value for a value found at n in a file.
func (d *instanceDecoder) valueAt(b string, i int, n *siteNode) (any, int) {
	if n != nil && n.site != nil {
		end := skipValue(b, i)
		d.raws = append(d.raws, rawSite{n.site, b[i:end]})
		return nil, end
	}
	switch c := b[i]; {
	case c == '{':
		i = skipSpace(b, i+1)
		if b[i] == '}' {
			return map[string]any{}, i + 1
		}
		start := len(d.members)
		for {
			var k string
			k, i = d.key(b, i)
			i = skipSpace(b, i)
			i = skipSpace(b, i+1) // ':'
			var v any
			v, i = d.valueAt(b, i, n.member(k))
			d.members = append(d.members, member{k, v})
			i = skipSpace(b, i)
			if b[i] == '}' {
				break
			}
			i = skipSpace(b, i+1) // ','
		}
		m := make(map[string]any, len(d.members)-start)
		for j := start; j < len(d.members); j++ {
			m[d.members[j].key] = d.members[j].value // the last of repeated keys wins
			d.members[j] = member{}
		}
		d.members = d.members[:start]
		return m, i + 1
	case c == '[':
		i = skipSpace(b, i+1)
		if b[i] == ']' {
			return []any{}, i + 1
		}
		start := len(d.elems)
		elem := n.element()
		for {
			var v any
			v, i = d.valueAt(b, i, elem)
			d.elems = append(d.elems, v)
			i = skipSpace(b, i)
			if b[i] == ']' {
				break
			}
			i = skipSpace(b, i+1) // ','
		}
		a := append([]any(nil), d.elems[start:]...)
		clear(d.elems[start:])
		d.elems = d.elems[:start]
		return a, i + 1
	case c == '"':
		lit, end := stringLiteral(b, i)
		return d.keep(unquoteLiteral(lit)), end
	case c == 't':
		return true, i + 4
	case c == 'f':
		return false, i + 5
	case c == 'n':
		return nil, i + 4
	default:
		end := i
		for end < len(b) && isNumberByte(b[end]) {
			end++
		}
		return number(d.keep(b[i:end])), end
	}
}

// member is an object member being decoded.
type member struct {
	key   string
	value any
}

// keep returns s, or a copy of it when the decoder owns its values.
func (d *instanceDecoder) keep(s string) string {
	if d.own {
		return strings.Clone(s)
	}
	return s
}

// key decodes the object key at b[i:], the same string for the same key.
// A key interned is a copy, so that it keeps no text alive.
func (d *instanceDecoder) key(b string, i int) (string, int) {
	lit, end := stringLiteral(b, i)
	if k, ok := d.keys[lit]; ok {
		return k, end
	}
	k := strings.Clone(unquoteLiteral(lit))
	d.keys[strings.Clone(lit)] = k
	return k, end
}

// stringLiteral returns the string literal (quotes included) at b[i:] and
// the index after it.
func stringLiteral(b string, i int) (string, int) {
	j := i + 1
	for {
		j += strings.IndexByte(b[j:], '"')
		n := 0 // backslashes before the quote
		for b[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return b[i : j+1], j + 1
		}
		j++
	}
}

// unquoteLiteral decodes a string literal: plain when it has no escape and
// is valid UTF-8, else as encoding/json decodes it.
func unquoteLiteral(lit string) string {
	inner := lit[1 : len(lit)-1]
	plain := true
	for i := 0; i < len(inner); i++ {
		if c := inner[i]; c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain || (!strings.Contains(inner, `\`) && utf8.ValidString(inner)) {
		return inner
	}
	var s string
	json.Unmarshal([]byte(lit), &s) // valid: checked before
	return s
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// number is a number literal as the schema library gets it.
func number(lit string) any {
	return json.Number(lit)
}

// members splits data, valid JSON, into the members of its top-level object
// as json.Unmarshal into map[string]json.RawMessage does (each value's text
// as it is, the last of duplicate keys winning); ok is false when data is
// not valid JSON or not an object.
func members(data []byte) (m map[string]json.RawMessage, ok bool) {
	if !jsonvalid.Valid(data) {
		return nil, false
	}
	text := string(data)
	i := skipSpace(text, 0)
	if text[i] != '{' {
		return nil, false
	}
	d := getDecoder()
	defer d.release()
	m = map[string]json.RawMessage{}
	for i = skipSpace(text, i+1); text[i] != '}'; {
		var k string
		k, i = d.key(text, i)
		i = skipSpace(text, skipSpace(text, i)+1) // ':'
		end := skipValue(text, i)
		m[k] = data[i:end:end]
		if i = skipSpace(text, end); text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	return m, true
}

// elements returns the number of elements of raw, a valid JSON value, when
// it is a list, else 0 (what json.Unmarshal into a slice leaves: nothing
// for null or a value of another type).
func elements(raw []byte) int {
	b := string(raw)
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '[' {
		return 0
	}
	n := 0
	for i = skipSpace(b, i+1); b[i] != ']'; n++ {
		if i = skipSpace(b, skipValue(b, i)); b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return n
}

// skipValue returns the index after the valid JSON value at b[i:].
func skipValue(b string, i int) int {
	depth := 0
	for {
		switch b[i] {
		case '"':
			_, i = stringLiteral(b, i)
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			i++
			for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != '"' && b[i] != '{' && b[i] != '[' &&
				b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t' && b[i] != ':' {
				i++
			}
		}
		if depth == 0 {
			return i
		}
		i = skipSpace(b, i)
	}
}
