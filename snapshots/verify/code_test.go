package verify

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
)

func TestSameCode(t *testing.T) {
	a := format.Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Go: "go1.26.0"}
	for _, tc := range []struct {
		name string
		b    format.Generator
		want bool
	}{
		{"same revision, other Go", format.Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Go: "go1.26.3"}, true},
		{"other revision", format.Generator{Module: "m", Version: "(devel)", Revision: "bbbb"}, false},
		{"same revision, modified", format.Generator{Module: "m", Version: "(devel)", Revision: "aaaa", Modified: true}, false},
		{"no revision on one side", format.Generator{Module: "m", Version: "(devel)"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCode(a, tc.b); got != tc.want {
				t.Errorf("sameCode = %v, want %v", got, tc.want)
			}
		})
	}
	// A checkout build of a commit (Go 1.24 and later stamp a
	// pseudo-version) and "go run MODULE@REV" of it, which records the
	// same pseudo-version and no revision.
	const pseudo = "v0.0.0-20261130183850-aabf57cb9fad"
	a = format.Generator{Module: "m", Version: pseudo, Revision: "aabf57cb9fad6ce251d98316393be669bb7c5027", Go: "go1.26.8"}
	for _, tc := range []struct {
		name string
		b    format.Generator
		want bool
	}{
		{"go run MODULE@REV of the same commit", format.Generator{Module: "m", Version: pseudo}, true},
		{"another commit", format.Generator{Module: "m", Version: "v0.0.0-20261201000000-0123456789ab"}, false},
		{"the same commit with changes", format.Generator{Module: "m", Version: pseudo + "+dirty", Revision: a.Revision, Modified: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCode(a, tc.b); got != tc.want {
				t.Errorf("sameCode = %v, want %v", got, tc.want)
			}
		})
	}
	// A checkout build of a commit and "go run MODULE@REV" of it: the same
	// pseudo-version, a revision on one side only.
	checkout := format.Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9", Revision: "b361426175c9c06706497dad518670edd89772c1"}
	goRun := format.Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9"}
	if !sameCode(checkout, goRun) || !sameCode(goRun, checkout) {
		t.Error("a checkout build and go run MODULE@REV of the same commit are not the same code")
	}
	if dirty := (format.Generator{Module: "m", Version: "v0.0.0-20261130181403-b361426175c9+dirty"}); sameCode(dirty, dirty) {
		t.Error("a +dirty version is the same code as itself")
	}
	devel := format.Generator{Module: "m", Version: "(devel)"}
	if sameCode(devel, devel) {
		t.Error("two (devel) builds without a revision are the same code; nothing says so")
	}
}

// TestRerunCommandQuotes: the printed command can be pasted into a shell.
func TestRerunCommandQuotes(t *testing.T) {
	g := format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Revision: "aabf57cb9fad6ce251d98316393be669bb7c5027"}
	for _, tc := range []struct{ dir, want string }{
		{"out/2026-09-27", "out/2026-09-27"},
		{"/srv/green tokens/2026-09-27", "'/srv/green tokens/2026-09-27'"},
		{"it's/2026-09-27", `'it'\''s/2026-09-27'`},
		{"$HOME/x", "'$HOME/x'"},
		{"x; touch pwned", "'x; touch pwned'"},
		{"$(touch pwned)", "'$(touch pwned)'"},
		{"a\nb", "'a\nb'"},
	} {
		want := "go run github.com/leadgreen/greentokens/cmd/greentokens@" + g.Revision + " verify " + tc.want
		if got := rerunCommand(g, "verify", tc.dir); got != want {
			t.Errorf("rerunCommand(verify %q) = %q, want %q", tc.dir, got, want)
		}
	}
}

// hostileDirs are snapshot folders whose names a shell would act on.
var hostileDirs = []string{
	"/srv/green tokens/2026-09-27",
	`it's "quoted"/2026-09-27`,
	"x; touch pwned; true",
	"$(touch pwned)`touch pwned`",
	"two\nlines\ttab",
	"'",
	"-n",
}

// shellArgs runs line in /bin/sh with git, cd and go as functions that
// print their arguments, one a line after the command's name, and returns
// what they print: the commands the line runs, as the shell reads them.
func shellArgs(t *testing.T, line string) []string {
	t.Helper()
	funcs := `p() { for a in "$@"; do printf '%s\0' "$a"; done; printf '\n'; }
git() { p git "$@"; }; cd() { p cd "$@"; }; go() { p go "$@"; }
`
	out, err := exec.Command("/bin/sh", "-c", funcs+line).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", line, err)
	}
	var cmds []string
	for _, l := range strings.SplitAfter(string(out), "\x00\n") {
		if l != "" {
			cmds = append(cmds, strings.TrimSuffix(l, "\x00\n"))
		}
	}
	return cmds
}

// TestRerunThroughAShell: a shell reads both printed commands back as the
// arguments meant, whatever the folder's name holds (one that starts with
// "-" given as "./-..."), and runs nothing else.
func TestRerunThroughAShell(t *testing.T) {
	const rev = "aabf57cb9fad6ce251d98316393be669bb7c5027"
	g := format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-20261130183850-aabf57cb9fad", Revision: rev}
	for _, dir := range hostileDirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		nul := func(args ...string) string { return strings.Join(args, "\x00") }
		arg := dir
		if strings.HasPrefix(dir, "-") {
			arg = "./" + dir
		}
		want := []string{nul("go", "run", "github.com/leadgreen/greentokens/cmd/greentokens@"+rev, "verify", arg)}
		if diff := cmp.Diff(want, shellArgs(t, rerunCommand(g, verifyArgs(dir)...))); diff != "" {
			t.Errorf("go run for %q (-want +got):\n%s", dir, diff)
		}
		want = []string{
			nul("git", "clone", "https://github.com/leadgreen/greentokens"),
			nul("cd", "greentokens"),
			nul("git", "checkout", rev),
			nul("go", "run", "-buildvcs=true", "./cmd/greentokens", "verify", abs),
		}
		if diff := cmp.Diff(want, shellArgs(t, rerunFromGit(g, verifyArgs(dir)...))); diff != "" {
			t.Errorf("git path for %q (-want +got):\n%s", dir, diff)
		}
	}
}

// TestRerunFromGit: the git path checks out what names the code (the
// revision, a pseudo-version's commit, a tag), runs it on the snapshot's
// absolute path, and is printed only for a GitHub repository's module.
func TestRerunFromGit(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	const m = "github.com/leadgreen/greentokens"
	clone := "git clone https://github.com/leadgreen/greentokens && cd greentokens && git checkout "
	run := " && go run -buildvcs=true ./cmd/greentokens verify /srv/out/2026-09-27"
	for _, tc := range []struct {
		name string
		g    format.Generator
		want string
	}{
		{"a checkout, clean", format.Generator{Module: m, Version: "(devel)", Revision: rev}, clone + rev + run},
		{"go run MODULE@REV", format.Generator{Module: m, Version: "v0.0.0-20261130175648-4c91eaa01234"}, clone + "4c91eaa01234" + run},
		{"go install MODULE@TAG", format.Generator{Module: m, Version: "v1.2.3"}, clone + "v1.2.3" + run},
		{"an incompatible major version", format.Generator{Module: m, Version: "v2.0.0+incompatible"}, clone + "v2.0.0" + run},
		{"a checkout with changes", format.Generator{Module: m, Version: "(devel)", Revision: rev, Modified: true}, ""},
		{"no revision", format.Generator{Module: m, Version: "(devel)"}, ""},
		{"not on GitHub", format.Generator{Module: "example.org/greentokens", Version: "(devel)", Revision: rev}, ""},
		{"below a repository's root", format.Generator{Module: m + "/v2", Version: "(devel)", Revision: rev}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rerunFromGit(tc.g, "verify", "/srv/out/2026-09-27"); got != tc.want {
				t.Errorf("rerunFromGit = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNoRerunOfAMalformedGenerator: a generator Go would not write gives
// no command to paste, and the report says why.
func TestNoRerunOfAMalformedGenerator(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	const m = "github.com/leadgreen/greentokens"
	for _, g := range []format.Generator{
		{Module: m, Version: "v1.0.0 verify x; touch pwned; true"},
		{Module: m, Version: "v1.0.0\n$(touch pwned)"},
		{Module: m, Version: "(devel)", Revision: "$(touch pwned)"},
		{Module: m + " && touch pwned", Version: "(devel)", Revision: rev},
		{Module: m, Version: "v1.0.0+evil"},
	} {
		if got := rerunCommand(g, "verify", "out/2026-09-27"); got != "" {
			t.Errorf("rerunCommand(%+v) = %q, want none", g, got)
		}
		if got := rerunFromGit(g, "verify", "out/2026-09-27"); got != "" {
			t.Errorf("rerunFromGit(%+v) = %q, want none", g, got)
		}
		r := &Report{Dir: "out/2026-09-27", BuiltBy: &g, VerifiedBy: format.Generator{Module: m, Version: "(devel)", Revision: rev}}
		var b strings.Builder
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "not in the shapes Go writes") || strings.Contains(b.String(), "go run") {
			t.Errorf("report for %+v:\n%s", g, b.String())
		}
	}
}

// TestRerunCommand: the command that verifies with the code that built a
// snapshot names its revision, or its published version, and is "" when
// neither names fetchable code.
func TestRerunCommand(t *testing.T) {
	const rev = "4c91eaa0123456789abcdef0123456789abcdef0"
	const m = "github.com/leadgreen/greentokens"
	for _, tc := range []struct {
		name  string
		g     format.Generator
		rerun string
	}{
		{"a checkout, clean", format.Generator{Module: m, Version: "(devel)", Revision: rev, Go: "go1.26.0"},
			"go run " + m + "/cmd/greentokens@" + rev + " verify out/2026-09-27"},
		{"a checkout with changes", format.Generator{Module: m, Version: "(devel)", Revision: rev, Modified: true, Go: "go1.26.0"}, ""},
		{"go run MODULE@VERSION: a version, no revision", format.Generator{Module: m, Version: "v0.0.0-20261130175648-4c91eaa01234", Go: "go1.26.1"},
			"go run " + m + "/cmd/greentokens@v0.0.0-20261130175648-4c91eaa01234 verify out/2026-09-27"},
		{"built without VCS stamping", format.Generator{Module: m, Version: "(devel)", Go: "go1.26.0"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rerunCommand(tc.g, "verify", "out/2026-09-27"); got != tc.rerun {
				t.Errorf("rerunCommand: %q, want %q", got, tc.rerun)
			}
		})
	}
}
