package validate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEarlyForReusesOnlyWhatIsOnDisk: the grid check takes the rows Early
// read when the manifest lists those bytes and the file on disk still
// holds them, and reads the file again otherwise: when Early read other
// bytes, when the manifest's sha256 differs, and when the file changed
// after Early read it.
func TestEarlyForReusesOnlyWhatIsOnDisk(t *testing.T) {
	// A few lines of the shared Ember CSV: its header and intensity rows.
	f, err := os.Open(filepath.Join(vtShared, "upstream", "ember", "co2-intensity-long-format.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	sc := bufio.NewScanner(f)
	for i := 0; i < 5 && sc.Scan(); i++ {
		csv.WriteString(sc.Text() + "\n")
	}
	f.Close()
	data := []byte(csv.String())

	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(gridSourceFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	source := ManifestSource{ManifestFile: ManifestFile{Path: gridSourceFile, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, Name: gridEmberName}

	read := func(r io.ReadCloser) map[string]*earlyFile {
		e := Begin(context.Background(), dir)
		e.Ember(gridSourceFile, r)
		e.Wait()
		return e.files
	}
	readFile := func() map[string]*earlyFile {
		r, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		return read(r)
	}
	snap := func(early map[string]*earlyFile, src ManifestSource) *Snap {
		return &Snap{Dir: dir, Manifest: &Manifest{Sources: []ManifestSource{src}}, early: early}
	}

	// Early read other bytes (of the same length) than the file holds,
	// which are the manifest's: not taken.
	flipped := []byte(strings.Replace(string(data), "gCO2/kWh,", "gCO2/kWh;", 1))
	if len(flipped) != len(data) || string(flipped) == string(data) {
		t.Fatal("no byte flipped")
	}
	if snap(read(io.NopCloser(bytes.NewReader(flipped))), source).earlyFor(gridSourceFile) != nil {
		t.Error("the rows Early read were taken, though it read other bytes than the file holds")
	}

	early := readFile()
	if f := early[gridSourceFile]; f == nil || f.grid == nil || len(f.grid.rows) == 0 {
		t.Fatalf("Early read no intensity rows: %+v", f)
	}
	if snap(early, source).earlyFor(gridSourceFile) == nil {
		t.Error("the rows Early read were not taken, though the file and the manifest hold their bytes")
	}
	other := source
	other.SHA256 = strings.Repeat("0", 64)
	if snap(early, other).earlyFor(gridSourceFile) != nil {
		t.Error("the rows Early read were taken, though the manifest lists other bytes")
	}
	if err := os.WriteFile(p, append(data, "Nowhere,XXX,2022\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if snap(early, source).earlyFor(gridSourceFile) != nil {
		t.Error("the rows Early read were taken, though the file changed after")
	}
}
