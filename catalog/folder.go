package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/leadgreen/greentokens/internal/regfile"
)

// fingerprint walks the snapshot folder dir without following links and
// returns a digest of every entry's path, kind, size and modification time:
// a folder being copied or replaced changes it. It returns a refusal when
// dir is not a folder (a symbolic link to one included), or when anything
// in it is neither a folder nor a regular file: a symbolic link could point
// outside the snapshot, and a named pipe or device would block or stream
// without end when read.
func fingerprint(dir string) (string, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("the dated folder is a symbolic link; a snapshot folder must be a real folder")
	}
	if !fi.IsDir() {
		return "", &regfile.NotRegularError{Path: filepath.Base(dir), Mode: fi.Mode()}
	}
	h := sha256.New()
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		m := info.Mode()
		switch {
		case m&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; refusing to follow it", filepath.ToSlash(rel))
		case !m.IsDir() && !m.IsRegular():
			return &regfile.NotRegularError{Path: filepath.ToSlash(rel), Mode: m}
		}
		h.Write([]byte(rel + "\x00" + m.String() + "\x00" + strconv.FormatInt(info.Size(), 10) + "\x00" +
			strconv.FormatInt(info.ModTime().UnixNano(), 10) + "\n"))
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
