package crashtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestReleasedBinaryHasNoHook builds the command as released and as the
// crash tests build it: only the tagged binary holds the names of the
// environment variables the hooks read.
func TestReleasedBinaryHasNoHook(t *testing.T) {
	if testing.Short() {
		t.Skip("links the command twice: in make scale, not under -short")
	}
	for _, tc := range []struct {
		tags []string
		want bool
	}{
		{nil, false},
		{[]string{"-tags", "crashtest"}, true},
	} {
		bin := filepath.Join(t.TempDir(), "greentokens")
		args := append(append([]string{"build"}, tc.tags...), "-o", bin, "../../cmd/greentokens")
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, env := range []string{KillEnv, PauseEnv} {
			if got := bytes.Contains(b, []byte(env)); got != tc.want {
				t.Errorf("go %v: the binary holds %s: %v, want %v", args, env, got, tc.want)
			}
		}
		if got := bytes.Contains(b, []byte("GREENTOKENS_TEST")); got != tc.want {
			t.Errorf("go %v: the binary holds GREENTOKENS_TEST: %v, want %v", args, got, tc.want)
		}
	}
}
