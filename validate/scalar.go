package validate

// Scalars at leaves, decided without the library where that is sure.
//
// A scalar new to a leaf (a slug, a row id, a sha256, a figure) went to
// the library: a validator, a scope and, for a number, a big.Rat of its
// text, to apply a type, a pattern or a minimum. A scalarCheck applies
// those keywords itself, as the library applies them to a scalar
// (validator.validate), reading them from the schema the library compiled:
// its compiled patterns and formats, its bounds. Each keyword gives yes,
// no or "not sure" (a number on a float64 bound, a bound a float64 cannot
// hold, a number beyond float64's range); only a sure yes is taken, and
// anything else goes to the library, which decides as before. A "no" must
// be as sure as a "yes", because "not" turns one into the other.
//
// A schema with a keyword a scalarCheck does not know (enum, const,
// multipleOf, if, a dynamic $ref, a "regex" format...) gets none.

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// verdict is a scalarCheck's answer.
type verdict uint8

const (
	unsure verdict = iota
	yes
	no
)

// and is the verdict of two keywords that both apply.
func (v verdict) and(w verdict) verdict {
	switch {
	case v == no || w == no:
		return no
	case v == yes && w == yes:
		return yes
	}
	return unsure
}

// scalarCheck is a compiled schema as it applies to scalars.
type scalarCheck struct {
	s *jsonschema.Schema
	// types are the JSON types allowed (typeNull...), 0 for any.
	types uint8
	// own: the string and number keywords and the subschemas apply; not
	// beside a $ref before draft 2019, which the library's validator
	// returns from (its compiler leaves them out too; this keeps them out
	// should it not).
	own bool
	// The bounds, as float64s that are exactly the schema's; has says
	// which are set.
	min, max, exMin, exMax float64
	has                    uint8
	ref, not               *scalarCheck
	allOf, anyOf, oneOf    []*scalarCheck
}

// JSON types, as scalarCheck.types holds them.
const (
	typeNull uint8 = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeBits = map[string]uint8{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// Bounds set (scalarCheck.has).
const (
	hasMin uint8 = 1 << iota
	hasMax
	hasExMin
	hasExMax
)

// scalarFields are the compiled schema's exported fields a scalarCheck
// applies or may leave aside (annotations, where the schema is); any
// other field set makes the schema one it does not take. A field the
// library adds one day is then refused too.
var scalarFields = map[string]bool{
	"DraftVersion": true, "Location": true, "ID": true, "Anchor": true,
	"Ref": true, "Types": true, "Format": true, "Not": true, "AllOf": true, "AnyOf": true, "OneOf": true,
	"MinLength": true, "MaxLength": true, "Pattern": true,
	"Minimum": true, "Maximum": true, "ExclusiveMinimum": true, "ExclusiveMaximum": true,
	"Title": true, "Description": true, "Default": true, "Comment": true,
	"ReadOnly": true, "WriteOnly": true, "Examples": true, "Deprecated": true,
}

// maxScalarSchemas bounds the subschemas and $refs a scalarCheck follows
// from a leaf, each counted every time it is reached: a $ref may lead back
// to where it is, and a chain of anyOfs of the same $refs doubles at each
// step (found by a review).
const maxScalarSchemas = 64

// newScalarCheck returns s as a scalarCheck, or nil when s, or a schema
// it leads to, has a keyword it does not take, or when it leads to more
// than maxScalarSchemas.
func newScalarCheck(s *jsonschema.Schema) *scalarCheck {
	budget := maxScalarSchemas
	return scalarCheckOf(s, &budget)
}

func scalarCheckOf(s *jsonschema.Schema, budget *int) *scalarCheck {
	if *budget--; *budget < 0 {
		return nil
	}
	c := &scalarCheck{s: s, own: s.Ref == nil || s.DraftVersion >= 2019}
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && !scalarFields[f.Name] && !v.Field(i).IsZero() {
			return nil
		}
	}
	if s.Format != nil && (s.Format.Name == "regex" || s.Format.Validate == nil) {
		return nil // the library validates "regex" with its own engine
	}
	if s.Types != nil {
		for _, name := range s.Types.ToStrings() {
			b, ok := typeBits[name]
			if !ok {
				return nil
			}
			c.types |= b
		}
	}
	for _, b := range []struct {
		r   *big.Rat
		to  *float64
		bit uint8
	}{{s.Minimum, &c.min, hasMin}, {s.Maximum, &c.max, hasMax}, {s.ExclusiveMinimum, &c.exMin, hasExMin}, {s.ExclusiveMaximum, &c.exMax, hasExMax}} {
		if b.r == nil {
			continue
		}
		f, exact := b.r.Float64()
		if !exact {
			return nil
		}
		*b.to, c.has = f, c.has|b.bit
	}
	sub := func(s *jsonschema.Schema) (*scalarCheck, bool) {
		if s == nil {
			return nil, true
		}
		c := scalarCheckOf(s, budget)
		return c, c != nil
	}
	subs := func(ss []*jsonschema.Schema) ([]*scalarCheck, bool) {
		var out []*scalarCheck
		for _, s := range ss {
			c, ok := sub(s)
			if !ok {
				return nil, false
			}
			out = append(out, c)
		}
		return out, true
	}
	var ok1, ok2, ok3, ok4, ok5 bool
	c.ref, ok1 = sub(s.Ref)
	c.not, ok2 = sub(s.Not)
	c.allOf, ok3 = subs(s.AllOf)
	c.anyOf, ok4 = subs(s.AnyOf)
	c.oneOf, ok5 = subs(s.OneOf)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil
	}
	return c
}

// scalarValue is a scalar's text as a scalarCheck reads it.
type scalarValue struct {
	text string
	kind uint8 // typeNull, typeBoolean, typeNumber or typeString
	// str is a string's value (as the library is given it); f a number's
	// value rounded to the nearest float64, inRange false beyond float64's
	// range.
	str     string
	f       float64
	inRange bool
	// integral: the number's text has no fraction and no exponent, an
	// integer in every draft.
	integral bool
}

// accepts reports whether text, a scalar's valid JSON text with no white
// space around it, is surely valid against the schema; false leaves it
// to the library.
func (c *scalarCheck) accepts(text string) bool {
	v := scalarValue{text: text}
	switch text[0] {
	case '"':
		v.kind, v.str = typeString, unquoteLiteral(text) // as instanceDecoder decodes it
	case 't', 'f':
		v.kind = typeBoolean
	case 'n':
		v.kind = typeNull
	default:
		var err error
		v.kind = typeNumber
		v.f, err = strconv.ParseFloat(text, 64)
		v.inRange = err == nil
		v.integral = !strings.ContainsAny(text, ".eE")
	}
	return c.decide(&v) == yes
}

// decide applies the schema to v, as validator.validate does.
func (c *scalarCheck) decide(v *scalarValue) verdict {
	r := c.decideType(v)
	if r == no {
		return no
	}
	if c.s.Format != nil {
		r = r.and(c.decideFormat(v))
	}
	if c.ref != nil {
		r = r.and(c.ref.decide(v))
	}
	if !c.own || r == no {
		return r
	}
	switch v.kind {
	case typeString:
		r = r.and(c.decideString(v.str))
	case typeNumber:
		r = r.and(c.decideNumber(v))
	}
	if c.not != nil {
		switch c.not.decide(v) {
		case yes:
			r = r.and(no)
		case unsure:
			r = r.and(unsure)
		}
	}
	for _, a := range c.allOf {
		r = r.and(a.decide(v))
	}
	if len(c.anyOf) > 0 {
		some := no
		for _, a := range c.anyOf {
			switch a.decide(v) {
			case yes:
				some = yes
			case unsure:
				if some == no {
					some = unsure
				}
			}
		}
		r = r.and(some)
	}
	if len(c.oneOf) > 0 {
		var yeses, unsures int
		for _, a := range c.oneOf {
			switch a.decide(v) {
			case yes:
				yeses++
			case unsure:
				unsures++
			}
		}
		switch {
		case yeses > 1:
			r = r.and(no)
		case unsures > 0:
			r = r.and(unsure)
		case yeses == 0:
			r = r.and(no)
		}
	}
	return r
}

func (c *scalarCheck) decideType(v *scalarValue) verdict {
	switch {
	case c.types == 0 || c.types&v.kind != 0:
		return yes
	case v.kind != typeNumber || c.types&typeInteger == 0:
		return no
	case v.integral:
		return yes
	case v.inRange && math.Trunc(v.f) != v.f:
		// A float64 that is not whole rounds no integer (up to 2^53 every
		// integer is a float64; beyond, every float64 is whole).
		return no
	}
	return unsure
}

// decideFormat applies the format's own function to the value the
// library would give it.
func (c *scalarCheck) decideFormat(v *scalarValue) verdict {
	var x any
	switch v.kind {
	case typeString:
		x = v.str
	case typeBoolean:
		x = v.text == "true"
	case typeNumber:
		x = json.Number(v.text)
	}
	if c.s.Format.Validate(x) != nil {
		return no
	}
	return yes
}

func (c *scalarCheck) decideString(str string) verdict {
	s := c.s
	if s.MinLength != nil || s.MaxLength != nil {
		n := utf8.RuneCountInString(str) // as the library counts
		if s.MinLength != nil && n < *s.MinLength || s.MaxLength != nil && n > *s.MaxLength {
			return no
		}
	}
	if s.Pattern != nil && !s.Pattern.MatchString(str) {
		return no
	}
	return yes
}

// decideNumber applies the bounds to v.f. Rounding to float64 is monotonic
// and keeps a float64 bound where it is, so a rounded value above (below)
// a bound comes from a value above (below) it; one equal to a bound may
// come from either side, and is left to the library.
func (c *scalarCheck) decideNumber(v *scalarValue) verdict {
	if c.has == 0 {
		return yes
	}
	if !v.inRange {
		return unsure
	}
	r := yes
	bound := func(set bool, b float64, above bool) {
		if !set {
			return
		}
		switch f := v.f; {
		case f == b:
			r = r.and(unsure)
		case (f > b) != above:
			r = r.and(no)
		}
	}
	bound(c.has&hasMin != 0, c.min, true)
	bound(c.has&hasExMin != 0, c.exMin, true)
	bound(c.has&hasMax != 0, c.max, false)
	bound(c.has&hasExMax != 0, c.exMax, false)
	return r
}
