package validate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestInstanceDecoderMatchesLibrary: the fast decoder gives the schema
// library the tree jsonschema.UnmarshalJSON gives it, for valid JSON.
func TestInstanceDecoderMatchesLibrary(t *testing.T) {
	for _, in := range []string{
		`null`, `true`, `false`, `0`, `-0`, `-12.50e+3`, `1E-7`, `"x"`, `""`, `[]`, `{}`,
		` { "a" : [ 1 , 2.0 , "3" , null , true , false , { } , [ ] ] } `,
		"{\"a\":1,\"a\":2,\"b\":{\"a\":3}}",
		`"esc: \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 \ud800"`,
		"\"raw: é \xff \xe2\x82\"",
		"{\"k\\u00e9\":1,\"k\xc3\xa9\":2,\"\":3}",
		"\t[\r\n1,\n{\"deep\":[[[{\"x\":12345678901234567890123}]]]}]\n",
	} {
		t.Run(in, func(t *testing.T) {
			want, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(in)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, newInstanceDecoder().decode([]byte(in))); diff != "" {
				t.Errorf("(-library +fast):\n%s", diff)
			}
		})
	}
}

// TestMembersMatchUnmarshal: a model file's top-level members are split as
// json.Unmarshal into map[string]json.RawMessage splits them; what is not
// a valid JSON object is refused.
func TestMembersMatchUnmarshal(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"a" : -1.5e3 , "b":[1,[2,{"c":"]}"}],[]],"d":{"e":{}},"f":true,"g":null,"h":"\"}"}`,
		"{\"a\":1,\"a\":[true]}", "{\"k\\u00e9\":\"x\",\n\t\"z\":[ ]\r\n}",
		`[]`, `1`, `{"a":1} {}`, `{"a":}`, ``,
	} {
		t.Run(in, func(t *testing.T) {
			var want map[string]json.RawMessage
			wantOK := json.Valid([]byte(in)) && json.Unmarshal([]byte(in), &want) == nil
			got, ok := members([]byte(in))
			if ok != wantOK {
				t.Fatalf("ok %v, want %v", ok, wantOK)
			}
			if diff := cmp.Diff(want, got); ok && diff != "" {
				t.Errorf("(-json.Unmarshal +members):\n%s", diff)
			}
		})
	}
}

// TestElements: elements counts a list's elements as json.Unmarshal into
// a slice does, and gives 0 for anything else.
func TestElements(t *testing.T) {
	for _, in := range []string{
		`[]`, ` [ ] `, `[1]`, `[1,2,3]`, "[\n  {\"a\": [1, 2]},\n  \"x,]\",\n  [[], {}],\n  null\n]", `["\"]", "\\"]`,
		`null`, `{}`, `{"a":[1,2]}`, `"[1,2]"`, `7`, `true`, `[{"configurations":[1,2,3]}]`,
	} {
		var want []json.RawMessage
		_ = json.Unmarshal([]byte(in), &want)
		if got := elements([]byte(in)); got != len(want) {
			t.Errorf("elements(%s) = %d, want %d", in, got, len(want))
		}
	}
}

// TestReleasedDecoderForgets: a decoder given back to the pool keeps
// nothing that would change what its next user decodes (where the placed
// sites are, the values it copies, texts taken raw).
func TestReleasedDecoderForgets(t *testing.T) {
	o := compileTestOnce(t, "t.json", `{"type": "object", "properties": {"x": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "object"}}}`)
	d := getDecoder()
	d.placed, d.own = o.placed, true
	text := []byte(`{"x": {"a": 1}, "key": 2}`)
	if v := d.decodeAt(text, d.placed).(map[string]any); v["x"] != nil || len(d.raws) != 1 {
		t.Fatalf("the placed value was not taken raw: %v, raws %v", v, d.raws)
	}
	d.release()
	if d.placed != nil || d.own || len(d.raws) != 0 {
		t.Errorf("released with placed %v, own %v, raws %v", d.placed, d.own, d.raws)
	}
	if got := d.decode([]byte(`{"x": {"a": 1}}`)); !reflect.DeepEqual(got, map[string]any{"x": map[string]any{"a": json.Number("1")}}) {
		t.Errorf("decoded after release: %#v", got)
	}
}
