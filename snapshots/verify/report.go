package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/snapshots/store"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/validate"
)

// Report is what Verify found. It marshals to JSON as is.
type Report struct {
	// Dir is the snapshot folder as given.
	Dir string `json:"dir"`
	// OK is true when there is no problem and no difference.
	OK bool `json:"ok"`
	// Rebuilt is true when the rebuild from the archived sources ran to the
	// end, so Diffs is complete.
	Rebuilt bool `json:"rebuilt"`
	// Problems are what validate.Check found (the manifest's listing,
	// sizes and sha256, the schemas, the independent recomputation), and a
	// rebuild that could not be run.
	Problems []validate.Problem `json:"problems"`
	// Diffs are the files that differ between the snapshot and its rebuild,
	// by path.
	Diffs []FileDiff `json:"diffs"`
	// BuiltBy is the code that built the snapshot, its manifest's
	// generator; nil when the manifest cannot be read.
	BuiltBy *format.Generator `json:"built_by"`
	// VerifiedBy is the code verifying it.
	VerifiedBy format.Generator `json:"verified_by"`
	// SameCode is true when BuiltBy and VerifiedBy name the same code
	// (module and unmodified revision). When false the verification still
	// ran, with the verifying code's rules.
	SameCode bool `json:"same_code"`
	// Rerun is the command that verifies the snapshot with the code that
	// built it, when that is other code and can be fetched.
	Rerun string `json:"rerun,omitempty"`
}

// FileDiff is one file that differs between a snapshot and its rebuild.
type FileDiff struct {
	// Path is the file's slash path in the snapshot.
	Path string `json:"path"`
	// Kind is "changed", "missing" (the rebuild has the file, the snapshot
	// does not) or "extra" (the snapshot has a file the rebuild does not).
	Kind string `json:"kind"`
	// Changes name each differing value of a JSON file (at most
	// maxChanges), by its path in the file.
	Changes []Change `json:"changes,omitempty"`
	// More counts the changes left out of Changes.
	More int `json:"more,omitempty"`
	// Note says what differs when Changes cannot: a file that is not JSON,
	// or JSON that differs in formatting only.
	Note string `json:"note,omitempty"`
}

// Change is one value that differs between a stored JSON file and its
// rebuild.
type Change struct {
	// Path names the value: keys joined by ".", array positions in [],
	// each array element followed by its id in parentheses where it has one
	// ("configurations[3] (qwen-3-32b/H100/1/64).wh_per_million_output_tokens").
	Path string `json:"path"`
	// Stored and Rebuilt are the values in JSON, "" where there is none.
	Stored  string `json:"stored"`
	Rebuilt string `json:"rebuilt"`
}

// maxChanges caps the changes listed per file.
const maxChanges = 40

// Err returns nil when the snapshot verified, else an error wrapping
// failure.ErrValidation that counts what was found.
func (r *Report) Err() error {
	if r.OK {
		return nil
	}
	return fmt.Errorf("%w: snapshot %s: %s", failure.ErrValidation, r.Dir, r.counts())
}

func (r *Report) counts() string {
	s := plural.Count(len(r.Problems), "problem") + ", " + plural.Count(len(r.Diffs), "file") + " differing from the rebuild"
	if !r.Rebuilt {
		s += " (not rebuilt)"
	}
	return s
}

// WriteText renders the report for a person.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.OK {
		fmt.Fprintf(&b, "verify %s: OK: every file matches manifest.json and its schema, every figure its recomputation, and a rebuild from sources/ is byte-identical\n", r.Dir)
	} else {
		fmt.Fprintf(&b, "verify %s: FAILED: %s\n", r.Dir, r.counts())
	}
	r.writeCode(&b)
	if len(r.Problems) > 0 {
		b.WriteString("\nProblems:\n")
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	if len(r.Diffs) > 0 {
		b.WriteString("\nRebuilt from sources/, these files differ (stored -> rebuilt):\n")
		for _, d := range r.Diffs {
			switch d.Kind {
			case "missing":
				fmt.Fprintf(&b, "  %s: missing from the snapshot (the rebuild has it)\n", d.Path)
			case "extra":
				fmt.Fprintf(&b, "  %s: in the snapshot but not in the rebuild\n", d.Path)
			default:
				fmt.Fprintf(&b, "  %s: differs", d.Path)
				if d.Note != "" {
					fmt.Fprintf(&b, ": %s", d.Note)
				}
				b.WriteString("\n")
				for _, c := range d.Changes {
					fmt.Fprintf(&b, "    %s: %s -> %s\n", c.Path, orAbsent(c.Stored), orAbsent(c.Rebuilt))
				}
				if d.More > 0 {
					fmt.Fprintf(&b, "    ... and %s\n", plural.Count(d.More, "more change"))
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCode says which code built the snapshot and which verified it.
func (r *Report) writeCode(b *strings.Builder) {
	built := "unknown (manifest.json cannot be read)"
	if r.BuiltBy != nil {
		built = r.BuiltBy.String()
	}
	fmt.Fprintf(b, "  built by:    %s\n  verified by: %s\n", built, r.VerifiedBy)
	switch {
	case r.SameCode || r.BuiltBy == nil:
		return
	case *r.BuiltBy == r.VerifiedBy:
		b.WriteString("  Neither records a VCS revision: that the same code built and verifies the snapshot cannot be shown.\n")
		return
	}
	b.WriteString("  The verifying code is not the code that built the snapshot; it verified with its own rules.\n")
	if r.Rerun != "" {
		fmt.Fprintf(b, "  To verify with the code that built it:\n    %s\n", r.Rerun)
	} else {
		b.WriteString("  The code that built it cannot be fetched by revision (a modified checkout or no revision recorded).\n")
	}
}

// WriteJSON renders the report as indented JSON with a final newline.
func (r *Report) WriteJSON(w io.Writer) error {
	return writeJSON(w, r)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// diffFile describes how a stored file differs from its rebuild: value by
// value for JSON, by size and first differing byte otherwise.
func diffFile(p string, stored, rebuilt []byte) FileDiff {
	d := FileDiff{Path: p, Kind: "changed"}
	byteNote := fmt.Sprintf("%d bytes stored, %d rebuilt; first difference at byte %d", len(stored), len(rebuilt), store.FirstDiff(stored, rebuilt))
	if !strings.HasSuffix(p, ".json") {
		d.Note = byteNote
		if isText(stored) && isText(rebuilt) {
			d.Changes, d.More = lineChanges(stored, rebuilt)
		}
		return d
	}
	sv, serr := decodeJSON(stored)
	rv, rerr := decodeJSON(rebuilt)
	switch {
	case serr != nil:
		d.Note = "the stored file is not valid JSON (" + serr.Error() + "); " + byteNote
		return d
	case rerr != nil:
		d.Note = "the rebuilt file is not valid JSON (" + rerr.Error() + "); " + byteNote
		return d
	}
	var r pathReporter
	if cmp.Equal(sv, rv, cmp.Reporter(&r)) {
		d.Note = "the same JSON values, formatted differently; " + byteNote
		return d
	}
	if len(r.changes) > maxChanges {
		d.More = len(r.changes) - maxChanges
		r.changes = r.changes[:maxChanges]
	}
	d.Changes = r.changes
	return d
}

// isText reports whether b looks like text: UTF-8 without NUL bytes.
func isText(b []byte) bool {
	return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}

// lineChanges lists the lines that differ between two texts, position by
// position ("line 12"), at most maxChanges, and how many more there are.
func lineChanges(stored, rebuilt []byte) ([]Change, int) {
	sl := strings.Split(string(stored), "\n")
	rl := strings.Split(string(rebuilt), "\n")
	var out []Change
	more := 0
	for i := 0; i < len(sl) || i < len(rl); i++ {
		var a, b string
		if i < len(sl) {
			a = strconv.Quote(sl[i])
		}
		if i < len(rl) {
			b = strconv.Quote(rl[i])
		}
		if a == b {
			continue
		}
		if len(out) == maxChanges {
			more++
			continue
		}
		out = append(out, Change{Path: fmt.Sprintf("line %d", i+1), Stored: a, Rebuilt: b})
	}
	return out, more
}

// decodeJSON decodes one JSON value into maps, slices and json.Numbers, so
// that numbers keep their published spelling.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the top-level value")
	}
	return v, nil
}

// pathReporter is a cmp.Reporter that records each differing value with a
// readable path.
type pathReporter struct {
	path    cmp.Path
	changes []Change
}

func (r *pathReporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *pathReporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }

func (r *pathReporter) Report(rs cmp.Result) {
	if rs.Equal() {
		return
	}
	vx, vy := r.path.Last().Values()
	r.changes = append(r.changes, Change{Path: jsonPath(r.path), Stored: jsonText(vx), Rebuilt: jsonText(vy)})
}

// jsonPath renders a cmp path over decoded JSON: keys joined by ".", array
// positions in [] followed by the element's id where it has one.
func jsonPath(p cmp.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cmp.MapIndex:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(fmt.Sprint(s.Key().Interface()))
		case cmp.SliceIndex:
			ix, iy := s.SplitKeys()
			switch {
			case ix == iy:
				fmt.Fprintf(&b, "[%d]", ix)
			case iy < 0:
				fmt.Fprintf(&b, "[%d]", ix)
			case ix < 0:
				fmt.Fprintf(&b, "[+%d]", iy)
			default:
				fmt.Fprintf(&b, "[%d->%d]", ix, iy)
			}
			vx, vy := s.Values()
			if id := elementID(vx); id != "" {
				fmt.Fprintf(&b, " (%s)", id)
			} else if id := elementID(vy); id != "" {
				fmt.Fprintf(&b, " (%s)", id)
			}
		}
	}
	if b.Len() == 0 {
		return "(top level)"
	}
	return b.String()
}

// idKeys are the keys that name an element of a published array, in order
// of preference.
var idKeys = []string{"row_id", "path", "slug", "name"}

func elementID(v reflect.Value) string {
	if !v.IsValid() || !v.CanInterface() {
		return ""
	}
	obj, ok := v.Interface().(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range idKeys {
		if s, ok := obj[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// jsonText renders a decoded JSON value compactly, "" when absent.
func jsonText(v reflect.Value) string {
	if !v.IsValid() || !v.CanInterface() {
		return ""
	}
	x := v.Interface()
	if x == nil {
		return "null"
	}
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	const max = 160
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
