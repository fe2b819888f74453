package verify

import (
	"fmt"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// command is the command-line program's package, for rerunCommand.
const command = "github.com/leadgreen/greentokens/cmd/greentokens"

// codeRef is what "go run MODULE@REF" needs to fetch the code g names: the
// revision, or the version when it is a published one; "" when neither
// names it (a modified checkout, or a "(devel)" build without a revision).
func codeRef(g format.Generator) string {
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

// sameCode reports whether g and o name the same code (the Go version
// aside), neither modified: the same module and revision, or the same
// published version. "go run MODULE@REV" records no revision but the
// version Go resolved REV to, the pseudo-version a checkout build of that
// commit records too.
func sameCode(g, o format.Generator) bool {
	if g.Modified || o.Modified || g.Module != o.Module {
		return false
	}
	if g.Revision != "" && g.Revision == o.Revision {
		return true
	}
	return g.Version == o.Version && g.Version != "(devel)" && g.Version != "" && !strings.HasSuffix(g.Version, "+dirty")
}

// rerunCommand is the command that runs the code g names on args ("verify
// DIR"), or "" when g does not name fetchable code.
func rerunCommand(g format.Generator, args ...string) string {
	ref := codeRef(g)
	if ref == "" {
		return ""
	}
	cmd := command
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
