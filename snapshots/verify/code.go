package verify

import (
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/validate"
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

// verifyArgs are the arguments that verify the snapshot folder dir: a
// folder whose name starts with "-" is given as "./-...", never read as a
// flag.
func verifyArgs(dir string) []string {
	if strings.HasPrefix(dir, "-") {
		dir = "./" + dir
	}
	return []string{"verify", dir}
}

// rerunCommand is the command that runs the code g names on args
// ("verify DIR") through the module proxy, "go run MODULE/cmd/greentokens@REF
// ARGS...", every argument shell-quoted (shellQuote); "" when g does not
// name fetchable code or is not in the shapes Go writes
// (validate.CheckGenerator): a manifest's generator is data, never a
// command.
func rerunCommand(g format.Generator, args ...string) string {
	ref := codeRef(g)
	if ref == "" || !wellFormed(g) {
		return ""
	}
	cmd := command
	if g.Module != "unknown" {
		cmd = g.Module + "/cmd/greentokens"
	}
	return shellJoin(append([]string{"go", "run", cmd + "@" + ref}, args...))
}

// rerunFromGit is the same run from a clone of the module's repository,
// for an auditor without a module proxy: "git clone https://github.com/OWNER/REPO
// && cd REPO && git checkout REF && go run -buildvcs=true ./cmd/greentokens
// ARGS...", with dir (the snapshot, which the last argument names) made
// absolute when it is a folder, since the command runs in the clone, and -buildvcs=true so that
// the verifying code records the revision it runs (verify then knows it is
// the same code). "" when rerunCommand is, or the module is not a GitHub
// repository's root (github.com/OWNER/REPO), whose clone address is known.
func rerunFromGit(g format.Generator, args ...string) string {
	ref := gitRef(g)
	owner, repo, ok := githubRepo(g.Module)
	if ref == "" || !ok || rerunCommand(g) == "" {
		return ""
	}
	if n := len(args); n > 0 && !strings.Contains(args[n-1], "://") { // a bucket's release URL stays as it is
		if abs, err := filepath.Abs(args[n-1]); err == nil {
			args = append(args[:n-1:n-1], abs)
		}
	}
	steps := [][]string{
		{"git", "clone", "https://github.com/" + owner + "/" + repo},
		{"cd", repo},
		{"git", "checkout", ref},
		append([]string{"go", "run", "-buildvcs=true", "./cmd/greentokens"}, args...),
	}
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = shellJoin(s)
	}
	return strings.Join(out, " && ")
}

// gitRef is what "git checkout" takes for the code g names: the revision,
// the commit of a pseudo-version, or a version's tag; "" as codeRef.
func gitRef(g format.Generator) string {
	ref := codeRef(g)
	switch {
	case ref == "" || ref == g.Revision:
		return ref
	case module.IsPseudoVersion(ref):
		rev, err := module.PseudoVersionRev(ref)
		if err != nil {
			return ""
		}
		return rev
	}
	return strings.TrimSuffix(ref, semver.Build(ref))
}

// githubRepo splits a module path github.com/OWNER/REPO.
func githubRepo(mod string) (owner, repo string, ok bool) {
	parts := strings.Split(mod, "/")
	if len(parts) != 3 || parts[0] != "github.com" || parts[1] == "" || parts[2] == "" {
		return "", "", false
	}
	return parts[1], parts[2], true
}

// wellFormed reports whether g is in the shapes Go writes, as the checker
// holds a manifest's generator to them.
func wellFormed(g format.Generator) bool {
	return len(validate.CheckGenerator(validate.ManifestGenerator(g))) == 0
}

// shellJoin joins args into one line a POSIX shell reads back as args.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.Join(quoted, " ")
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters: in single quotes, inside which nothing is special, each
// single quote of s closing them, escaped with a backslash, and reopening
// them. The printed command can be pasted as it is: a folder with a space,
// a quote, a ";" or "$(", a line break is one argument.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
