package plural

import "testing"

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 grids", 1: "1 grid", 2: "2 grids", 11: "11 grids", -1: "-1 grids"} {
		if got := Count(n, "grid"); got != want {
			t.Errorf("Count(%d, grid) = %q, want %q", n, got, want)
		}
	}
}
