package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// taskParse is what a parse of a task file returns and reports.
type taskParse struct {
	Rows  []*lbRow
	OK    bool
	Probs []Problem
	Err   string
}

func runTaskParse(parse func(*problems, string, func() (io.ReadCloser, error)) ([]*lbRow, bool, error), task string, open func() (io.ReadCloser, error)) taskParse {
	ps := &problems{file: "tasks/" + task + ".json"}
	rows, ok, err := parse(ps, task, open)
	p := taskParse{Rows: rows, OK: ok, Probs: ps.list}
	if err != nil {
		p.Err = err.Error()
	}
	return p
}

// checkTaskParseSame parses data with parseTaskFrom (the one pass, falling
// back) and parseTaskSlow (the three passes) and fails unless both return
// and report the same; it returns whether the one pass read the file (the
// file was opened once). With halves, each is also run on reads of half
// what is asked.
func checkTaskParseSame(t *testing.T, name, task string, data []byte, halves bool) bool {
	t.Helper()
	fast := false
	for _, half := range []bool{false, true} {
		if half && !halves {
			break
		}
		opens := 0
		open := func() (io.ReadCloser, error) {
			opens++
			if half {
				return io.NopCloser(iotest.HalfReader(bytes.NewReader(data))), nil
			}
			return io.NopCloser(bytes.NewReader(data)), nil
		}
		want := runTaskParse(parseTaskSlow, task, open)
		opens = 0
		got := runTaskParse(parseTaskFrom, task, open)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(lbRow{})); diff != "" {
			t.Errorf("%s (half reads: %v): (-three passes +one pass):\n%s", name, half, diff)
		}
		if !half {
			fast = opens == 1
		} else if fast != (opens == 1) {
			t.Errorf("%s: read in one pass %v, on half reads %v", name, fast, opens == 1)
		}
	}
	return fast
}

// TestParseTaskFastSharedFiles: every shared task file parses as the three
// passes parse it, and the lm-arena-chat and gpqa files (the ones a build
// reads) are read in one pass.
func TestParseTaskFastSharedFiles(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	for _, f := range vtVersionFiles(t, "tasks/*.json") {
		p, data := f.path, f.data
		task := strings.TrimSuffix(filepath.Base(p), ".json")
		fast := checkTaskParseSame(t, p, task, data, false)
		if !fast && (task == taskChat || task == taskGPQA) {
			t.Errorf("%s: not read in one pass", p)
		}
		if !fast {
			t.Logf("%s: read in three passes", p)
		}
	}
}

// TestParseTaskFastHostile: the task files of the hostile fixtures parse
// as the three passes parse them.
func TestParseTaskFastHostile(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(vtHostileDir, "*.txtar"))
	if err != nil || len(names) < 2 {
		t.Fatalf("fixtures: %v, %v", names, err)
	}
	n := 0
	for _, p := range names {
		files, _ := vtHostile(t, filepath.Base(p))
		for _, task := range []string{taskChat, taskGPQA} {
			if data, ok := files["tasks/"+task+".json"]; ok {
				checkTaskParseSame(t, filepath.Base(p)+" "+task, task, data, true)
				n++
			}
		}
	}
	if n < len(names) {
		t.Errorf("%d task files in %d fixtures", n, len(names))
	}
}

// TestParseTaskFastEdits: edits of a real file, each of what the one pass
// gives up on among them, parse as the three passes parse them; the one
// pass reads exactly the ones it should.
func TestParseTaskFastEdits(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	base, err := os.ReadFile(filepath.Join(vtSeed, "tasks", taskGPQA+".json"))
	if err != nil {
		t.Fatal(err)
	}
	const row0 = `"model_id": `
	if !bytes.HasPrefix(base, []byte("{")) || !bytes.Contains(base, []byte(`"task": "gpqa"`)) || !bytes.Contains(base, []byte(`"configurations": [`)) {
		t.Fatal("the gpqa file is not as this test expects")
	}
	for _, tc := range []struct {
		name     string
		old, new string // the first old replaced with new; old "" appends new
		whole    string // else, the whole file
		fast     bool   // read in one pass
	}{
		{name: "as it is", fast: true},
		{name: "white space after", new: "\n\t \r\n", fast: true},

		// Keys given twice.
		{name: "a key twice in a row", old: row0, new: `"nickname": "x", ` + row0},
		{name: "a key twice in a row, the second escaped", old: row0, new: `"model_id": "x", "\u006dodel_id": `},
		{name: "a key twice in a row, both escaped alike", old: row0, new: `"\u006dodel_id": "x", "\u006dodel_id": `},
		{name: "a key twice at the top", old: `"task": "gpqa"`, new: `"task": "gpqa", "task": "gpqa"`},
		{name: "a skipped key twice at the top", old: `"task": "gpqa"`, new: `"x": 1, "task": "gpqa", "x": 2`},
		{name: "a key twice in a nested object of a row", old: row0, new: `"extra": {"a": [{"b": 1, "b": 2}]}, ` + row0},
		{name: "a key twice in a skipped top-level value", old: `"task": "gpqa"`, new: `"meta": {"k": {"b": 1, "b": 2}}, "task": "gpqa"`},

		// Keys equal under case folding.
		{name: "Task and TASK", old: `"task": "gpqa"`, new: `"Task": "gpqa", "TASK": "gpqa"`},
		{name: "task and Task", old: `"task": "gpqa"`, new: `"task": "x", "Task": "gpqa"`},
		{name: "configurations in two cases", old: `"task": "gpqa"`, new: `"task": "gpqa", "Configurations": [{}]`},
		{name: "configurations escaped and in another case", old: `"task": "gpqa"`, new: `"task": "gpqa", "\u0043onfigurations": null`},
		{name: "a row key in two cases", old: row0, new: `"Model_ID": "x", ` + row0},
		{name: "a row key in two cases, one escaped", old: row0, new: `"\u004bey": 1, "key": 2, ` + row0},
		{name: "a row key and its Kelvin-sign twin", old: row0, new: `"\u212aey": 1, "key": 2, ` + row0},
		{name: "a row key and its long-s twin", old: row0, new: `"ſize": 1, "Size": 2, ` + row0},
		{name: "keys in two cases in a nested object of a row", old: row0, new: `"extra": {"a": {"Date": 1, "date": 2}}, ` + row0},
		{name: "keys in two cases in a skipped top-level value", old: `"task": "gpqa"`, new: `"meta": [{"k": 1, "K": 2}], "task": "gpqa"`},
		{name: "keys in two cases, in two objects", old: row0, new: `"extra": [{"k": 1}, {"K": 2}], "Extra2": {"k": 1}, ` + row0, fast: true},
		{name: "the dotted capital I beside i", old: row0, new: `"ix": 1, "İx": 2, ` + row0, fast: true},

		// Keys the one pass reads although not plain.
		{name: "Task alone", old: `"task": "gpqa"`, new: `"Task": "gpqa"`, fast: true},
		{name: "task escaped", old: `"task": "gpqa"`, new: `"t\u0061sk": "gpqa"`, fast: true},
		{name: "CONFIGURATIONS alone", old: `"configurations": [`, new: `"CONFIGURATIONS": [`, fast: true},
		{name: "a row key upper case and escaped", old: row0, new: `"Extra_\u004Bey": 1, "caf\u00e9 \"q\"": "é", ` + row0, fast: true},
		{name: "a skipped top-level key upper case", old: `"task": "gpqa"`, new: `"Meta": {"Date": 1}, "task": "gpqa"`, fast: true},

		// Bytes and escapes.
		{name: "invalid UTF-8 in a string", old: row0, new: "\"x\": \"a\xffb\", " + row0},
		{name: "invalid UTF-8 in the task", old: `"task": "gpqa"`, new: "\"task\": \"gp\xc3qa\""},
		{name: "a rune cut short at the end", new: "\xe2\x98"},
		{name: "an escaped lone surrogate in a row value", old: row0, new: `"x": "\ud800", ` + row0},
		{name: "an escaped lone low surrogate in a row value", old: row0, new: `"x": "a\udc00b", ` + row0},
		{name: "an escaped lone surrogate in the task", old: `"task": "gpqa"`, new: `"task": "gp\ud800qa"`},
		{name: "an escaped lone surrogate in a key", old: row0, new: `"\ud800": 1, ` + row0},
		{name: "two high surrogates", old: row0, new: `"x": "\ud800\ud800", ` + row0},
		{name: "an escaped surrogate pair", old: row0, new: `"x": "\ud83d\ude00 \u00e9 \/ \\", ` + row0, fast: true},
		{name: "an escaped task", old: `"task": "gpqa"`, new: `"task": "\u0067pqa"`, fast: true},
		{name: "a BOM", whole: "\ufeff" + `{"task": "gpqa", "configurations": [{}]}`},
		{name: "a NUL in a string", old: row0, new: "\"x\": \"a\x00b\", " + row0},

		// Types.
		{name: "task a number", old: `"task": "gpqa"`, new: `"task": 1`},
		{name: "task an object", old: `"task": "gpqa"`, new: `"task": {"a": 1}`},
		{name: "task an array", old: `"task": "gpqa"`, new: `"task": ["gpqa"]`},
		{name: "task true", old: `"task": "gpqa"`, new: `"task": true`},
		{name: "task null", old: `"task": "gpqa"`, new: `"task": null`, fast: true},
		{name: "task another", old: `"task": "gpqa"`, new: `"task": "lm-arena-chat"`, fast: true},
		{name: "task missing", old: `"task": "gpqa",`, new: ``, fast: true},
		{name: "configurations an object", whole: `{"task": "gpqa", "configurations": {"a": {}}}`},
		{name: "configurations a string", whole: `{"task": "gpqa", "configurations": "x"}`},
		{name: "configurations null", whole: `{"task": "gpqa", "configurations": null}`, fast: true},
		{name: "configurations empty", whole: `{"task": "gpqa", "configurations": []}`, fast: true},
		{name: "configurations missing", whole: `{"task": "gpqa"}`, fast: true},
		{name: "an empty object", whole: `{}`, fast: true},
		{name: "rows not objects", old: `"configurations": [`, new: `"configurations": [1, null, "s", [], [{}], true, -0.5e3, `, fast: true},
		{name: "a row with a bad field", old: `"max_num_seqs": `, new: `"max_num_seqs": "x", "was": `, fast: true},
		{name: "a row with a nested value", old: row0, new: `"extra": {"a": [1, {"b": null}], "c": "]}\"{"}, ` + row0, fast: true},
		{name: "a row value like a name", old: row0, new: `"x": "Q\": 1, \"K\\", "y": ["K", "k"], ` + row0, fast: true},
		{name: "a row spaced oddly", old: row0, new: "\"x\" \t:\r\n \"y\"\n ,\"z\" :{ \"w\" : [ ] } , " + row0, fast: true},

		// The whole file.
		{name: "data after the value", new: "x"},
		{name: "a second value", new: " {}"},
		{name: "a second null", new: "\nnull"},
		{name: "truncated", whole: "\x00"}, // replaced below
		{name: "cut after a row", whole: `{"task": "gpqa", "configurations": [{}`},
		{name: "empty", whole: ""},
		{name: "white space only", whole: " \n\t\r "},
		{name: "null", whole: "null"},
		{name: "null and spaces", whole: " null\n"},
		{name: "an array", whole: `[{"task": "gpqa"}]`},
		{name: "a string", whole: `"gpqa"`},
		{name: "a number", whole: `1`},
		{name: "a trailing comma", whole: `{"task": "gpqa", "configurations": [{},]}`},
		{name: "a trailing comma at the top", whole: `{"task": "gpqa",}`},
		{name: "NaN", whole: `{"task": "gpqa", "configurations": [NaN]}`},
		{name: "a key not a string", whole: `{task: "gpqa"}`},
		{name: "deep in a row", whole: `{"task": "gpqa", "configurations": [` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `]}`},
		{name: "deep in a skipped value", whole: `{"x": ` + strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat(`}`, 10000) + `, "task": "gpqa"}`},
		{name: "deep in a skipped value, at the limit", whole: `{"x": ` + strings.Repeat(`{"a":`, 9999) + `1` + strings.Repeat(`}`, 9999) + `, "task": "gpqa"}`, fast: true},
		{name: "deep, but not too deep", whole: `{"x": ` + strings.Repeat(`[`, 9990) + strings.Repeat(`]`, 9990) + `, "task": "gpqa"}`, fast: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := base
			switch {
			case tc.name == "truncated":
				data = base[:len(base)*2/3]
			case tc.whole != "" || tc.name == "empty":
				data = []byte(tc.whole)
			case tc.old != "":
				if !bytes.Contains(base, []byte(tc.old)) {
					t.Fatalf("no %q in the file", tc.old)
				}
				data = bytes.Replace(base, []byte(tc.old), []byte(tc.new), 1)
			default:
				data = append(append([]byte(nil), base...), tc.new...)
			}
			fast := checkTaskParseSame(t, tc.name, taskGPQA, data, true)
			if fast != tc.fast {
				t.Errorf("read in one pass: %v, want %v", fast, tc.fast)
			}
		})
	}
}

// TestParseTaskFastMatchesUnmarshalCases: the inputs of
// TestDecodeTaskMatchesUnmarshal, and the same spelled with rows, parse
// alike.
func TestParseTaskFastMatchesUnmarshalCases(t *testing.T) {
	for _, in := range taskStructures {
		checkTaskParseSame(t, fmt.Sprintf("%q", in), "t", []byte(in), true)
	}
}

// failingReader delivers its data, and fails after n bytes of it.
type failingReader struct {
	data []byte
	n    int
}

var errDisk = errors.New("read failed: disk on fire")

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errDisk
	}
	m := copy(p[:min(len(p), r.n)], r.data)
	r.data, r.n = r.data[m:], r.n-m
	if m == 0 { // the data has ended before the failure
		return 0, io.EOF
	}
	return m, nil
}

// TestParseTaskFastReadError: a file that fails to be read, wherever it
// fails (before its end, or in place of its end), is a read error, as it
// is to the three passes, and nothing is reported.
func TestParseTaskFastReadError(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(vtSeed, "tasks", taskChat+".json"))
	if err != nil {
		t.Fatal(err)
	}
	dup := bytes.Replace(base, []byte(`"model_id": `), []byte(`"nickname": "x", "model_id": `), 1)
	for _, data := range [][]byte{base, dup} {
		for _, n := range []int{0, 1, 100, 4 << 10, 64<<10 - 1, 64 << 10, 64<<10 + 1, len(data) / 2, len(data) - 1, len(data)} {
			open := func() (io.ReadCloser, error) {
				return io.NopCloser(&failingReader{data: data, n: n}), nil
			}
			want := runTaskParse(parseTaskSlow, taskChat, open)
			got := runTaskParse(parseTaskFrom, taskChat, open)
			if got.Err != errDisk.Error() || len(got.Probs) != 0 || got.Rows != nil {
				t.Errorf("fails after %d of %d bytes: error %q, %d problems, %d rows; want the read error alone", n, len(data), got.Err, len(got.Probs), len(got.Rows))
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(lbRow{})); diff != "" {
				t.Errorf("fails after %d of %d bytes: (-three passes +one pass):\n%s", n, len(data), diff)
			}
		}
	}
	// A failure to open, the first time or the second.
	for _, failAt := range []int{1, 2} {
		opens := 0
		open := func() (io.ReadCloser, error) {
			if opens++; opens == failAt {
				return nil, errDisk
			}
			return io.NopCloser(bytes.NewReader([]byte("{"))), nil
		}
		if _, _, err := parseTaskFrom(&problems{}, taskChat, open); !errors.Is(err, errDisk) {
			t.Errorf("open fails at call %d: error %v", failAt, err)
		}
	}
}

// BenchmarkParseTask: the one pass and the three passes over the sample's
// lm-arena-chat file, and over a file of about 22 MB made of its rows
// repeated (the size of a 10,000-model build's), streamed from disk.
func BenchmarkParseTask(b *testing.B) {
	src := filepath.Join(vtSeed, "tasks", taskChat+".json")
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	var doc struct {
		Task           string          `json:"task"`
		Configurations json.RawMessage `json:"configurations"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		b.Fatal(err)
	}
	rows := bytes.TrimSpace(doc.Configurations)
	rows = bytes.TrimSpace(rows[1 : len(rows)-1])
	var big bytes.Buffer
	fmt.Fprintf(&big, "{\n  \"task\": %q,\n  \"configurations\": [\n    ", doc.Task)
	for i := 0; big.Len() < 22<<20; i++ {
		if i > 0 {
			big.WriteString(",\n    ")
		}
		big.Write(rows)
	}
	big.WriteString("\n  ]\n}\n")
	bigPath := filepath.Join(b.TempDir(), "big.json")
	if err := os.WriteFile(bigPath, big.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, f := range []struct{ name, path string }{{"lm-arena-chat", src}, {"22MB", bigPath}} {
		open := func() (io.ReadCloser, error) { return os.Open(f.path) }
		for _, p := range []struct {
			name  string
			parse func(*problems, string, func() (io.ReadCloser, error)) ([]*lbRow, bool, error)
		}{{"three-passes", parseTaskSlow}, {"one-pass", parseTaskFrom}} {
			b.Run(f.name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					ps := &problems{}
					rows, ok, err := p.parse(ps, taskChat, open)
					if err != nil || len(rows) == 0 {
						b.Fatal(err, ok, len(rows), ps.list)
					}
				}
			})
		}
	}
}
