// Package gridtest gives tests and benchmarks a full-size, Ember-shaped
// CSV written by ../shared/tools/ember-synth. Its values are SYNTHETIC but
// for the real intensity rows: use it to measure, never as a source of figures.
// It needs ../shared (package shared): the tests and benchmarks that call it
// are built with the "scale" tag, as make scale and make bench build them.
package gridtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/leadgreen/greentokens/internal/shared"
)

// SynthCSV returns the path of ember-synth's CSV at the given scale (scale
// 1 is about 40 MB). It is written once and cached in the temporary
// folder, under a name keyed by the sha256 of the tool and of its input, so
// a changed tool writes it anew. Without python3 the caller is skipped.
func SynthCSV(tb testing.TB, scale int) string {
	tb.Helper()
	return toolCSV(tb, "ember-synth", fmt.Sprintf("scale%d", scale), "--scale", fmt.Sprint(scale))
}

// WideCSV returns the path of ember-wide's CSV written from the shared
// long-format file: the layout Ember has published since July 2026, about
// 14 MB, cached as SynthCSV's is. Only its Total generation intensities are
// real figures.
func WideCSV(tb testing.TB) string {
	tb.Helper()
	return toolCSV(tb, "ember-wide", "july-2026", sharedLong(tb))
}

// sharedLong is the shared file of real intensity rows in the long layout.
func sharedLong(tb testing.TB) string {
	tb.Helper()
	return shared.Path(tb, "upstream", "ember", "co2-intensity-long-format.csv")
}

// toolCSV runs ../shared/tools/TOOL ARGS... OUT, which reads the shared
// long-format file, once per version of the tool and of that file, and
// returns OUT.
func toolCSV(tb testing.TB, tool, label string, args ...string) string {
	tb.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		tb.Skip("python3 not found: ../shared/tools/" + tool + " needs it to write the benchmark CSV")
	}
	toolPath := shared.Path(tb, "tools", tool)
	h := sha256.New()
	for _, p := range []string{toolPath, sharedLong(tb)} {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		h.Write(b)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	path := filepath.Join(os.TempDir(), fmt.Sprintf("greentokens-%s-%s-%s.csv", tool, key, label))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	tmp, err := os.CreateTemp(os.TempDir(), "greentokens-"+tool+"-*.tmp")
	if err != nil {
		tb.Fatal(err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := append(append([]string{toolPath}, args...), tmp.Name())
	if out, err := exec.Command(py, cmd...).CombinedOutput(); err != nil {
		tb.Fatalf("%s %s: %v\n%s", tool, label, err, out)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		tb.Fatal(err)
	}
	return path
}
