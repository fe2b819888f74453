package transform

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"testing"

	"github.com/leadgreen/greentokens/transform/jsonnum"
)

// firstDiff reports where got and want part, with some bytes around it.
func firstDiff(got, want []byte) string {
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	return string(got[max(0, i-60):min(len(got), i+60)]) + "\nwant\n" + string(want[max(0, i-60):min(len(want), i+60)])
}

// TestEncoderAsEncodingJSON: on every leaderboard version, each
// model file that Marshal writes with the hand-written encoder, and
// index.json as Encode writes it, are byte for byte what encoding/json and
// appendIndented write (marshalStd, encode with std).
func TestEncoderAsEncodingJSON(t *testing.T) {
	versions := builtVersions(t, "https://example.invalid/lm-arena-chat.json?a=1&b=<2>")
	for _, bv := range versions {
		for _, m := range bv.models {
			if _, ok, _ := appendEncoded(nil, m, ""); !ok {
				t.Fatalf("the encoder does not write a *Model")
			}
			got, err := Marshal(m)
			if err != nil {
				t.Fatalf("%s %s: %v", bv.name, m.Slug, err)
			}
			want, err := marshalStd(m)
			if err != nil {
				t.Fatalf("%s %s: %v", bv.name, m.Slug, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: models/%s.json differs from encoding/json's:\n%s", bv.name, m.Slug, firstDiff(got, want))
			}
		}
		idx, err := BuildIndex(bv.lb, bv.models, readFile(t, bv.dir, "tasks", "gpqa.json"))
		if err != nil {
			t.Fatal(err)
		}
		var got, want bytes.Buffer
		if err := idx.Encode(&got); err != nil {
			t.Fatalf("%s: %v", bv.name, err)
		}
		if err := idx.encode(&want, true); err != nil {
			t.Fatalf("%s: %v", bv.name, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: index.json differs from encoding/json's:\n%s", bv.name, firstDiff(got.Bytes(), want.Bytes()))
		}
	}
}

// stdEncoded is what encoding/json and appendIndented write for v, with
// prefix before every line but the first.
func stdEncoded(t *testing.T, v any, prefix string) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out, err := appendIndented(nil, bytes.TrimSuffix(b.Bytes(), []byte("\n")), prefix)
	if err != nil {
		t.Fatal(err)
	}
	return out, nil
}

// edgeStrings hold every kind of escape, HTML characters, U+2028 and
// U+2029, and bytes that are not UTF-8.
var edgeStrings = []string{
	"", "plain", "\"\\/", "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<b>&amp;</b>", "\u2028\u2029",
	"é ü 中文 🙂", "\xff\xfe", "\xe2\x80", "\xed\xa0\x80", "\ufffd", "a\u2028b\xc3(\x1bc",
}

// fill sets every field below v: strings to s, string lists to {s, ""},
// numbers to n (x for floats), bools to true, a struct list to one filled
// element, a best map to the keys in keys, a nil pointer to a filled value.
func fill(v reflect.Value, s string, n int64, x float64, keys []string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int64:
		v.SetInt(n)
	case reflect.Float64:
		v.SetFloat(x)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), s, n, x, keys)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), s, n, x, keys)
	case reflect.Slice:
		l := reflect.MakeSlice(v.Type(), 2, 2)
		fill(l.Index(0), s, n, x, keys)
		v.Set(l)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for _, k := range keys {
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, k, n, x, nil)
			m.SetMapIndex(reflect.ValueOf(k), e)
		}
		v.Set(m)
	}
}

// TestEncoderEdgeValues: the encoder writes encoding/json's bytes for
// zero values (nil lists and maps), empty lists and maps, every string
// escape in every field and map key, and numbers at their edges; and
// fails where encoding/json fails (a NaN).
func TestEncoderEdgeValues(t *testing.T) {
	var values []any
	for _, zero := range []any{&Model{}, &IndexEntry{}, &GPUComparison{}, &TaskComparison{}, &LoadCurve{}} {
		values = append(values, zero)
	}
	values = append(values, Model{Slug: "value, not pointer"},
		&Model{GPUs: []string{}, Configurations: []Config{}, Best: map[string]Config{}, Source: Source{LicenceEvidence: []string{}}},
		&IndexEntry{GPUs: []string{}, Best: map[string]Config{}})
	keys := []string{"b", "H100", "B200", "a", "", "\xff", "é", "\u2028", "Z\n", "B2000"}
	numbers := []struct {
		n int64
		x float64
	}{{0, math.Copysign(0, -1)}, {-1, -0.5}, {math.MaxInt64, 1e21}, {math.MinInt64, 1e-7}, {42, 0.1}, {7, 123456789.125}, {1, 8}}
	for i, s := range edgeStrings {
		num := numbers[i%len(numbers)]
		for _, v := range []any{&Model{}, &IndexEntry{}, &GPUComparison{}, &TaskComparison{}, &LoadCurve{}} {
			fill(reflect.ValueOf(v).Elem(), s, num.n, num.x, keys)
			values = append(values, v)
		}
	}
	for _, v := range values {
		for _, prefix := range []string{"", elementPrefix} {
			want, err := stdEncoded(t, v, prefix)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := appendEncoded([]byte("kept"), v, prefix)
			if !ok || err != nil {
				t.Fatalf("%T: ok %v, %v", v, ok, err)
			}
			if !bytes.Equal(got, append([]byte("kept"), want...)) {
				t.Errorf("%T with prefix %q differs from encoding/json's:\n%s", v, prefix, firstDiff(got, append([]byte("kept"), want...)))
			}
		}
	}

	nan := &LoadCurve{ThroughputRise: jsonnum.Float(math.NaN())}
	if _, err := stdEncoded(t, nan, ""); err == nil {
		t.Fatal("encoding/json wrote a NaN")
	}
	if got, ok, err := appendEncoded([]byte("kept"), nan, ""); !ok || err == nil || string(got) != "kept" {
		t.Errorf("a NaN: got %q, ok %v, error %v; want the buffer unchanged and an error", got, ok, err)
	}
	if _, err := Marshal(&Model{ParamsB: jsonnum.Float(math.Inf(1))}); err == nil {
		t.Error("Marshal wrote an infinity")
	}
	if got, err := Marshal((*Model)(nil)); err != nil || string(got) != "null" {
		t.Errorf("a nil *Model: %q, %v; want null", got, err)
	}
}

// FuzzAppendString: appendString writes the bytes encoding/json writes
// for any string, without HTML escaping.
func FuzzAppendString(f *testing.F) {
	for _, s := range edgeStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %q, encoding/json %q", s, got, want)
		}
	})
}

// BenchmarkEncodeModel: a model file of the seed version, by way of
// encoding/json and appendIndented (std) and by the encoder (new).
func BenchmarkEncodeModel(b *testing.B) {
	_, models := seedIndex(b)
	for _, bc := range []struct {
		name    string
		marshal func(any) ([]byte, error)
	}{{"std", marshalStd}, {"new", Marshal}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := bc.marshal(models[i%len(models)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodeIndexLists: index.json's four lists of the seed version,
// every element, by way of encoding/json (std) and by the encoder (new).
func BenchmarkEncodeIndexLists(b *testing.B) {
	idx, _ := seedIndex(b)
	b.Logf("%s", idx.Summary())
	for _, std := range []bool{true, false} {
		name := map[bool]string{true: "std", false: "new"}[std]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			e := newListEncoder(io.Discard)
			e.std = std
			for b.Loop() {
				if err := encodeList(e, idx.Models); err != nil {
					b.Fatal(err)
				}
				if err := encodeList(e, idx.GPUComparisons); err != nil {
					b.Fatal(err)
				}
				if err := encodeList(e, idx.TaskComparisons); err != nil {
					b.Fatal(err)
				}
				if err := encodeList(e, idx.LoadCurves); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
