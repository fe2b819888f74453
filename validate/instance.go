package validate

import (
	"encoding/json"
	"unicode/utf8"
)

// instanceDecoder turns JSON text that is already known to be valid (checked
// by json.Valid, or returned whole by a json.Decoder) into the tree the
// schema library validates: map[string]any, []any, string, bool, nil and
// json.Number. It decodes what jsonschema.UnmarshalJSON decodes (the last
// of duplicate keys wins, strings unescaped and invalid UTF-8 replaced as
// encoding/json does), only faster: one pass, no reflection, the object
// keys of a file shared.
//
// (Handing the library int64 for integral literals was measured too: it
// still makes a big.Rat of each, and saved nothing measurable.)
type instanceDecoder struct {
	keys map[string]string // interned object keys
}

func newInstanceDecoder() *instanceDecoder {
	return &instanceDecoder{keys: map[string]string{}}
}

// decode decodes data, valid JSON holding one value.
func (d *instanceDecoder) decode(data []byte) any {
	v, _ := d.value(data, skipSpace(data, 0))
	return v
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// value decodes the value at b[i:] and returns it and the index after it.
func (d *instanceDecoder) value(b []byte, i int) (any, int) {
	switch c := b[i]; {
	case c == '{':
		m := map[string]any{}
		i = skipSpace(b, i+1)
		if b[i] == '}' {
			return m, i + 1
		}
		for {
			var k string
			k, i = d.key(b, i)
			i = skipSpace(b, i)
			i = skipSpace(b, i+1) // ':'
			var v any
			v, i = d.value(b, i)
			m[k] = v
			i = skipSpace(b, i)
			if b[i] == '}' {
				return m, i + 1
			}
			i = skipSpace(b, i+1) // ','
		}
	case c == '[':
		a := []any{}
		i = skipSpace(b, i+1)
		if b[i] == ']' {
			return a, i + 1
		}
		for {
			var v any
			v, i = d.value(b, i)
			a = append(a, v)
			i = skipSpace(b, i)
			if b[i] == ']' {
				return a, i + 1
			}
			i = skipSpace(b, i+1) // ','
		}
	case c == '"':
		lit, end := stringLiteral(b, i)
		return unquoteLiteral(lit), end
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
		return number(b[i:end]), end
	}
}

// key decodes the object key at b[i:], interned.
func (d *instanceDecoder) key(b []byte, i int) (string, int) {
	lit, end := stringLiteral(b, i)
	if k, ok := d.keys[string(lit)]; ok {
		return k, end
	}
	k := unquoteLiteral(lit)
	d.keys[string(lit)] = k
	return k, end
}

// stringLiteral returns the string literal (quotes included) at b[i:] and
// the index after it.
func stringLiteral(b []byte, i int) ([]byte, int) {
	j := i + 1
	for b[j] != '"' {
		if b[j] == '\\' {
			j++
		}
		j++
	}
	return b[i : j+1], j + 1
}

// unquoteLiteral decodes a string literal: plain when it has no escape and
// is valid UTF-8, else as encoding/json decodes it.
func unquoteLiteral(lit []byte) string {
	inner := lit[1 : len(lit)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain || (!hasByte(inner, '\\') && utf8.Valid(inner)) {
		return string(inner)
	}
	var s string
	json.Unmarshal(lit, &s) // valid: checked before
	return s
}

func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// number is a number literal as the schema library gets it.
func number(lit []byte) any {
	return json.Number(lit)
}
