package transform

import (
	"bytes"
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
)

// objectMembers splits raw, one valid JSON value, into its members when it
// is an object: name -> the value's bytes as written (a slice of raw).
// It gives what json.Unmarshal into a map[string]json.RawMessage gives, in
// one pass without reflection (a task file's rows are tens of thousands);
// ok is false when raw is not an object. A name given twice keeps its last
// value, as json.Unmarshal does (ParseTask refuses such files first, but
// upstream has written them: an image task's row repeats
// "weight_precision").
func objectMembers(raw []byte) (m map[string]json.RawMessage, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	m = make(map[string]json.RawMessage, 32)
	var name []byte
	for dec.PeekKind() != '}' {
		k, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		if name, err = jsontext.AppendUnquote(name[:0], k); err != nil {
			return nil, false
		}
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		end := dec.InputOffset()
		m[string(name)] = json.RawMessage(raw[end-int64(len(v)) : end : end])
	}
	return m, true
}
