package jsonvalid

import (
	"encoding/json"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzValid: what jsontext accepts, encoding/json accepts; Valid answers
// as json.Valid.
func FuzzValid(f *testing.F) {
	for _, s := range []string{``, ` `, `null`, `{}`, `[]`, `"s"`, `0`, `-0.5e+10`, `{"a":1,"a":2}`,
		"\"\xff\"", `"\ud800"`, "\ufeff{}", `{"a":1,}`, `[1,]`, `01`, `1.`, `1e`, `.5`, `+1`, `{"a" 1}`,
		"\"tab\there\"", `[1] [2]`, `{}}`, `[true,false,null]`, `{"k":[{"x":"\u00e9\n"}, -1.5E-3]}`, "\t\r\n[ ]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		jt, std := jsontext.Value(b).IsValid(), json.Valid(b)
		if jt && !std {
			t.Fatalf("jsontext accepts %q, json.Valid refuses it", b)
		}
		if Valid(b) != std {
			t.Fatalf("Valid(%q) != json.Valid", b)
		}
	})
}
