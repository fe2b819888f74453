package snapshots

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Generator is the code that wrote a snapshot, from the binary's build
// information (runtime/debug.ReadBuildInfo), never a hand-kept constant: an
// auditor can fetch and run exactly that code again (RerunCommand).
type Generator struct {
	// Module is the main module's path: "github.com/leadgreen/greentokens".
	Module string `json:"module"`
	// Version is the module's version: a tag or pseudo-version (built with
	// "go install" or "go run ...@REV", or in a checkout whose commit Go
	// stamped: "+dirty" when modified), "(devel)" when none was stamped.
	Version string `json:"version"`
	// Revision is the full VCS revision (a git commit), "" when the binary
	// was built outside a checkout (go run ...@REV records none; Version
	// then names the code).
	Revision string `json:"revision"`
	// Modified is true when the checkout had uncommitted changes: the
	// revision alone does not give the code then.
	Modified bool `json:"modified"`
	// Go is the Go toolchain that built the binary: "go1.26.0".
	Go string `json:"go"`
}

// Command is the command-line program's package, for RerunCommand.
const Command = "github.com/leadgreen/greentokens/cmd/greentokens"

// ThisGenerator is the code running now, from its build information.
func ThisGenerator() Generator {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Generator{Module: "unknown", Version: "unknown"}
	}
	return generatorOf(bi)
}

func generatorOf(bi *debug.BuildInfo) Generator {
	g := Generator{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
	if g.Module == "" { // a test binary
		g.Module = bi.Path
	}
	if g.Version == "" {
		g.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			g.Revision = s.Value
		case "vcs.modified":
			g.Modified = s.Value == "true"
		}
	}
	return g
}

// String is the generator on one line: module, version, revision (with
// "+modified"), Go version.
func (g Generator) String() string {
	s := g.Module + " " + g.Version
	if g.Revision != "" {
		s += " revision " + g.Revision
		if g.Modified {
			s += " (modified)"
		}
	} else {
		s += " (no VCS revision recorded)"
	}
	if g.Go != "" {
		s += " " + g.Go
	}
	return s
}

// Ref is what "go run MODULE@REF" needs to fetch this code: the revision,
// or the version when it is a published one; "" when neither names it
// (a modified checkout, or a "(devel)" build without a revision).
func (g Generator) Ref() string {
	switch {
	case g.Modified:
		return ""
	case g.Revision != "":
		return g.Revision
	case g.Version != "" && g.Version != "(devel)" && strings.HasPrefix(g.Version, "v"):
		return g.Version
	}
	return ""
}

// SameCode reports whether g and o name the same code (the Go version
// aside), neither modified: the same module and revision, or the same
// published version. "go run MODULE@REV" records no revision but the
// version Go resolved REV to, the pseudo-version a checkout build of that
// commit records too.
func (g Generator) SameCode(o Generator) bool {
	if g.Modified || o.Modified || g.Module != o.Module {
		return false
	}
	if g.Revision != "" && g.Revision == o.Revision {
		return true
	}
	return g.Version == o.Version && g.Version != "(devel)" && g.Version != "" && !strings.HasSuffix(g.Version, "+dirty")
}

// RerunCommand is the command that runs the code g names on args ("verify
// DIR"), or "" when g does not name fetchable code.
func (g Generator) RerunCommand(args ...string) string {
	ref := g.Ref()
	if ref == "" {
		return ""
	}
	cmd := Command
	if g.Module != "" && g.Module != "unknown" {
		cmd = g.Module + "/cmd/greentokens"
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.TrimSpace(fmt.Sprintf("go run %s@%s %s", cmd, ref, strings.Join(quoted, " ")))
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters, so that the printed command can be pasted as it is
// (a folder with a space, say).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
