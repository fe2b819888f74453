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

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/snapshots/store"
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
	// built it, when that is other code and can be fetched, through the
	// module proxy (go run MODULE/cmd/greentokens@REF verify DIR), and
	// RerunGit the same from a clone of its repository (git clone ... &&
	// go run ./cmd/greentokens verify DIR), when the module names one. Each
	// is one line of shell-quoted arguments, and there is none when the
	// manifest's generator is not in the shapes Go writes
	// (validate.CheckGenerator).
	Rerun    string `json:"rerun,omitempty"`
	RerunGit string `json:"rerun_git,omitempty"`
	// Upstream are the archived sources fetched again from upstream
	// (verify --upstream: CheckUpstream); absent otherwise.
	Upstream []UpstreamFile `json:"upstream,omitempty"`
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

// Err returns nil when the snapshot verified, else an error that counts
// what was found, wrapping failure.ErrValidation, or failure.ErrUpstream
// when all that failed is the fetch of sources from upstream
// (CheckUpstream).
func (r *Report) Err() error {
	if r.OK {
		return nil
	}
	return fmt.Errorf("%w: snapshot %s: %s", r.upstreamErr(), r.Dir, r.counts())
}

func (r *Report) counts() string {
	s := plural.Count(len(r.Problems), "problem") + ", " + plural.Count(len(r.Diffs), "file") + " differing from the rebuild"
	if !r.Rebuilt {
		s += " (not rebuilt)"
	}
	if r.Upstream != nil {
		differ, unfetched := r.upstreamCounts()
		s += ", " + plural.Count(differ, "source") + " differing from upstream"
		if unfetched > 0 {
			s += ", " + strconv.Itoa(unfetched) + " not fetched"
		}
	}
	return s
}

// WriteText renders the report for a person, one line at a time, each
// shown by printable.String: a value of the snapshot (a generator, a path,
// an upstream name) can neither bring a control character to the terminal
// nor break a line into lines of its own.
func (r *Report) WriteText(w io.Writer) error {
	var t textLines
	if r.OK {
		t.line("verify %s: OK: every file matches manifest.json and its schema, every figure its recomputation, and a rebuild from sources/ is byte-identical", r.Dir)
	} else {
		t.line("verify %s: FAILED: %s", r.Dir, r.counts())
	}
	r.writeCode(&t)
	if len(r.Problems) > 0 {
		t.line("")
		t.line("Problems:")
		for _, p := range r.Problems {
			t.line("  %s", p)
		}
	}
	if len(r.Diffs) > 0 {
		t.line("")
		t.line("Rebuilt from sources/, these files differ (stored -> rebuilt):")
		for _, d := range r.Diffs {
			switch {
			case d.Kind == "missing":
				t.line("  %s: missing from the snapshot (the rebuild has it)", d.Path)
			case d.Kind == "extra":
				t.line("  %s: in the snapshot but not in the rebuild", d.Path)
			case d.Note != "":
				t.line("  %s: differs: %s", d.Path, d.Note)
			default:
				t.line("  %s: differs", d.Path)
			}
			for _, c := range d.Changes {
				t.line("    %s: %s -> %s", c.Path, orAbsent(c.Stored), orAbsent(c.Rebuilt))
			}
			if d.More > 0 {
				t.line("    ... and %s", plural.Count(d.More, "more change"))
			}
		}
	}
	r.writeUpstream(&t)
	_, err := io.WriteString(w, t.String())
	return err
}

// writeUpstream lists the sources fetched again from upstream.
func (r *Report) writeUpstream(t *textLines) {
	if r.Upstream == nil {
		return
	}
	t.line("")
	t.line("Fetched again from upstream (sha256 archived -> upstream's):")
	for _, f := range r.Upstream {
		at := f.URL
		if f.Commit != "" {
			at += " (commit " + f.Commit + ")"
		}
		switch {
		case f.Err != "":
			t.line("  %s: not fetched from %s: %s", f.Path, at, f.Err)
		case f.Same && f.Note == "":
			t.line("  %s: the same as %s", f.Path, at)
		case f.Same:
			t.line("  %s: the same source as %s: %s (%s -> %s)", f.Path, at, f.Note, f.Stored, f.Fetched)
		default:
			t.line("  %s: DIFFERS from %s: %s -> %s: %s", f.Path, at, f.Stored, f.Fetched, f.Note)
		}
	}
}

// textLines is a text report, each line shown by printable.String.
type textLines struct{ strings.Builder }

func (t *textLines) line(format string, a ...any) {
	t.WriteString(printable.String(fmt.Sprintf(format, a...)))
	t.WriteByte('\n')
}

// writeCode says which code built the snapshot and which verified it.
func (r *Report) writeCode(t *textLines) {
	built := "unknown (manifest.json cannot be read)"
	if r.BuiltBy != nil {
		built = r.BuiltBy.String()
	}
	t.line("  built by:    %s", built)
	t.line("  verified by: %s", r.VerifiedBy)
	switch {
	case r.SameCode || r.BuiltBy == nil:
		return
	case *r.BuiltBy == r.VerifiedBy:
		t.line("  Neither records a VCS revision: that the same code built and verifies the snapshot cannot be shown.")
		return
	}
	t.line("  The verifying code is not the code that built the snapshot; it verified with its own rules.")
	switch {
	case r.Rerun != "":
		t.line("  To verify with the code that built it, through the Go module proxy:")
		t.line("    %s", r.Rerun)
		if r.RerunGit != "" {
			t.line("  or from a clone of its repository, without a module proxy:")
			t.line("    %s", r.RerunGit)
		}
	case !wellFormed(*r.BuiltBy):
		t.line("  manifest.json's generator is not in the shapes Go writes (see the problems): no command to fetch its code is printed.")
	default:
		t.line("  The code that built it cannot be fetched by revision (a modified checkout or no revision recorded).")
	}
}

// WriteJSON renders the report as indented JSON with a final newline,
// through printable.JSON: the snapshot's text keeps its value, and no
// control character of it is written raw.
func (r *Report) WriteJSON(w io.Writer) error {
	return writeJSON(printable.JSON(w), r)
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
