// Package gridtest gives tests and benchmarks a full-size, Ember-shaped
// CSV written by ../shared/tools/ember-synth. Its values are SYNTHETIC but
// for the real intensity rows: use it to measure, never as a source of figures.
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
// a changed tool writes it anew. It needs ../shared (package shared: tests
// built with the "scale" tag, as make scale and make bench build them).
// Without python3 the caller is skipped.
func SynthCSV(tb testing.TB, scale int) string {
	tb.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		tb.Skip("python3 not found: ../shared/tools/ember-synth needs it to write the benchmark CSV")
	}
	tool := shared.Path(tb, "tools", "ember-synth")
	input := shared.Path(tb, "upstream", "ember", "co2-intensity-long-format.csv")
	h := sha256.New()
	for _, p := range []string{tool, input} {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		h.Write(b)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	path := filepath.Join(os.TempDir(), fmt.Sprintf("greentokens-ember-synth-%s-scale%d.csv", key, scale))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	tmp, err := os.CreateTemp(os.TempDir(), "greentokens-ember-synth-*.tmp")
	if err != nil {
		tb.Fatal(err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if out, err := exec.Command(py, tool, "--scale", fmt.Sprint(scale), tmp.Name()).CombinedOutput(); err != nil {
		tb.Fatalf("ember-synth --scale %d: %v\n%s", scale, err, out)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		tb.Fatal(err)
	}
	return path
}
