// Package jsondecode checks that a large JSON document decodes into a Go
// type without holding it decoded.
package jsondecode

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Check checks that the JSON value r holds decodes into a value of
// type t, as json.Unmarshal would, without holding it: the value is an
// object whose fields are decoded one at a time, those that are slices one
// element at a time, and each is let go. (index.json is tens of megabytes
// for ten thousand models, and several times that decoded.)
func Check(r io.Reader, t reflect.Type) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	dec := json.NewDecoder(br)
	if first, err := firstNonSpace(br); err != nil || first != '{' || t.Kind() != reflect.Struct {
		// Not an object: decode it whole (a mistake, and small, or an
		// error at its first byte).
		return dec.Decode(reflect.New(t).Interface())
	}
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		sf, ok := jsonField(t, key)
		if !ok {
			var skip json.RawMessage // an unknown field: ignored, as json.Unmarshal does
			if err := dec.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		if sf.Type.Kind() != reflect.Slice {
			if err := dec.Decode(reflect.New(sf.Type).Interface()); err != nil {
				return fieldError(key, err)
			}
			continue
		}
		tok, err = dec.Token()
		switch {
		case err != nil:
			return err
		case tok == nil: // null
			continue
		case tok != json.Delim('['):
			return fmt.Errorf("field %q: a JSON %v where an array belongs", key, tokenKind(tok))
		}
		for i := 0; dec.More(); i++ {
			if err := dec.Decode(reflect.New(sf.Type.Elem()).Interface()); err != nil {
				return fieldError(fmt.Sprintf("%s[%d]", key, i), err)
			}
		}
		if _, err := dec.Token(); err != nil { // ]
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the top-level value")
		}
		return fmt.Errorf("invalid JSON after the top-level value: %v", err)
	}
	return nil
}

func fieldError(field string, err error) error {
	return fmt.Errorf("field %s: %w", field, err)
}

func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "object"
	case string:
		return "string"
	case bool:
		return "bool"
	case float64, json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", tok)
}

// firstNonSpace returns the first byte of br after JSON white space,
// without consuming it.
func firstNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.Discard(1)
		default:
			return b[0], nil
		}
	}
}

// jsonField finds the field of struct type t that the JSON key names, as
// encoding/json matches them: an exact match of the field's JSON name
// first, else one equal under case folding.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	var fold reflect.StructField
	folded := false
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if name == key {
			return sf, true
		}
		if !folded && strings.EqualFold(name, key) {
			fold, folded = sf, true
		}
	}
	return fold, folded
}
