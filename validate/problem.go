package validate

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a snapshot.
type Problem struct {
	// File is the slash-separated path of the file at fault, relative to
	// the snapshot folder ("models/qwen-3-32b.json", "manifest.json",
	// "sources/leaderboard/tasks/lm-arena-chat.json"); "." for the folder.
	File string `json:"file"`
	// Where is the row or entry within the file, e.g.
	// "configurations[3] (qwen-3-32b/B200/1/64)" or "sources[2]"; empty when
	// the problem is about the file or a top-level field.
	Where string `json:"where,omitempty"`
	// Field is the key at fault within Where, e.g.
	// "wh_per_million_output_tokens" or "source.compiled_evidence".
	Field string `json:"field,omitempty"`
	// Msg says what is wrong. With a Field it reads on from the field's
	// name ("is 86.85, recomputed 86.84 from ..."); otherwise it is a
	// sentence of its own.
	Msg string `json:"msg"`
}

// String renders the problem on one line:
// FILE: WHERE: FIELD MSG (the parts that are empty left out).
func (p Problem) String() string {
	s := p.File
	if p.Where != "" {
		s += ": " + p.Where
	}
	if s += ": "; p.Field != "" {
		s += p.Field + " "
	}
	return s + p.Msg
}

// Report is the error Check returns: every problem found, in a stable
// order (by check, then by file and position). It marshals to JSON as is.
type Report struct {
	// Dir names the snapshot as its fs.FS does (NamedFS: the folder given
	// to regfile.DirFS); empty when it does not.
	Dir      string    `json:"dir"`
	Problems []Problem `json:"problems"`
}

// Error lists every problem, one per line.
func (r *Report) Error() string {
	return listProblems(strings.TrimSpace("snapshot "+r.Dir), r.Problems)
}

// listProblems says how many problems what has, then lists them, one per line.
func listProblems(what string, probs []Problem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "validate: %s: %d problem", what, len(probs))
	if len(probs) != 1 {
		b.WriteString("s")
	}
	for _, p := range probs {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// problems collects Problems for one file.
type problems struct {
	file string
	list []Problem
}

func (ps *problems) add(where, field, format string, a ...any) {
	ps.list = append(ps.list, Problem{File: ps.file, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
}
