package build

import (
	"runtime/debug"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// ThisGenerator is the code running now, from its build information
// (runtime/debug.ReadBuildInfo), never a hand-kept constant.
func ThisGenerator() format.Generator {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return format.Generator{Module: "unknown", Version: "(devel)"}
	}
	return generatorOf(bi)
}

func generatorOf(bi *debug.BuildInfo) format.Generator {
	g := format.Generator{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
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

// MissingProvenance says what keeps g, the code running a build, from
// naming the code a snapshot records as its generator, "" when nothing
// does: an unmodified VCS revision names it, and so does a published
// module version without one (go install MODULE@VERSION, go run
// MODULE@REV: the module proxy holds that code). A binary built by go run
// without -buildvcs=true, in a git worktree (whose .git is a file, which Go
// does not stamp) or with -buildvcs=false records neither; one built from
// a checkout with uncommitted changes records a revision that does not
// hold its code.
func MissingProvenance(g format.Generator) string {
	switch {
	case g.Revision != "" && g.Modified:
		return "the VCS revision " + g.Revision + " with uncommitted changes (vcs.modified): no commit holds this code"
	case g.Revision != "":
		return ""
	case strings.HasPrefix(g.Version, "v") && !strings.HasSuffix(g.Version, "+dirty"):
		return ""
	}
	return "no VCS revision (vcs.revision) and no module version: built by go run, in a git worktree or with -buildvcs=false"
}

// MissingRevision says why g records no unmodified VCS revision, "" when
// it does: what build --require-revision asks of the running binary.
func MissingRevision(g format.Generator) string {
	switch {
	case g.Revision == "" && strings.HasPrefix(g.Version, "v"):
		return "no VCS revision (vcs.revision), only the module version " + g.Version
	case g.Revision == "" || g.Modified:
		return MissingProvenance(g)
	}
	return ""
}
