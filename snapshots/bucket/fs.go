package bucket

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"

	"github.com/leadgreen/greentokens/format"
)

// releaseFS is a release in a bucket as an fs.FS: the objects under
// DATE/ but its site, with each source its manifest lists read from
// sources/sha256/HEX. The manifest is read once, the first time any file
// is opened, and served from memory after, so that the sources resolve
// through the very manifest the reader reads. The listing (ReadDir, Stat)
// is read once too, when first asked for.
type releaseFS struct {
	b    *Bucket
	date string
	// want is the manifest's sha256 releases.json lists, "" when unknown.
	want string

	once     sync.Once
	manifest []byte // nil: DATE/manifest.json is absent
	modTime  time.Time
	listed   map[string]format.File
	err      error

	treeOnce sync.Once
	tree     map[string][]fs.DirEntry // each folder's entries, sorted by name
	files    map[string]*fileInfo
	treeErr  error
}

func (b *Bucket) releaseFS(date, want string) *releaseFS {
	return &releaseFS{b: b, date: date, want: want}
}

// Name names the release in messages (validate.Check reads it).
func (f *releaseFS) Name() string { return f.b.Name(f.date) }

// load reads the manifest and indexes what it lists: the sources and the
// outputs, by slash path. A manifest that does not decode lists nothing
// here (store.Open says why); one that is not the manifest releases.json
// lists is an error.
func (f *releaseFS) load() error {
	f.once.Do(func() {
		data, v, err := f.b.readVersioned(f.b.ctx, releaseKey(f.date, format.ManifestPath), MaxManifestBytes)
		f.modTime = v.modTime
		if err != nil {
			f.err = err
			return
		}
		if !v.exists {
			return
		}
		if sum := sha256.Sum256(data); f.want != "" && hex.EncodeToString(sum[:]) != f.want {
			f.err = fmt.Errorf("%s/%s has the sha256 %s, not the %s that %s lists", f.Name(), format.ManifestPath,
				hex.EncodeToString(sum[:]), f.want, f.b.releasesName())
			return
		}
		f.manifest = data
		var m struct {
			Sources []format.File `json:"sources"`
			Outputs []format.File `json:"outputs"`
		}
		f.listed = map[string]format.File{}
		if json.Unmarshal(data, &m) != nil {
			return
		}
		for _, src := range m.Sources {
			if strings.HasPrefix(src.Path, format.SourcesDir) && isSum(src.SHA256) && src.Size >= 0 {
				f.listed[src.Path] = src
			}
		}
		for _, out := range m.Outputs {
			if _, dup := f.listed[out.Path]; !dup && !strings.HasPrefix(out.Path, format.SourcesDir) && out.Size >= 0 {
				f.listed[out.Path] = out
			}
		}
	})
	return f.err
}

// key is the object behind the release's file at name, and the most
// bytes it may have: a listed source's content object, else DATE/name;
// the size the manifest lists, else MaxManifestBytes.
func (f *releaseFS) key(name string) (string, int64) {
	if lf, ok := f.listed[name]; ok {
		if strings.HasPrefix(name, format.SourcesDir) {
			return format.ContentPath(lf.SHA256), lf.Size
		}
		return releaseKey(f.date, name), lf.Size
	}
	return releaseKey(f.date, name), MaxManifestBytes
}

func hidden(name string) bool {
	return name == strings.TrimSuffix(format.SiteDir, "/") || strings.HasPrefix(name, format.SiteDir)
}

func (f *releaseFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if err := f.load(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	switch {
	case name == ".":
		return f.openDir(name)
	case hidden(name):
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case name == format.ManifestPath && f.manifest != nil:
		return &memFile{Reader: bytes.NewReader(f.manifest), info: fileInfo{name: name, size: int64(len(f.manifest)), mod: f.modTime}}, nil
	}
	key, limit := f.key(name)
	ctx, cancel := context.WithTimeout(f.b.ctx, f.b.readTimeout)
	r, err := f.b.newReader(ctx, key)
	if isNotFound(err) {
		cancel()
		if _, ok := f.listed[name]; !ok {
			if d, err := f.openDir(name); err == nil {
				return d, nil
			}
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if err != nil {
		cancel()
		return nil, &fs.PathError{Op: "open", Path: name, Err: storeErr(f.b.ctx, "reading "+f.b.name+"/"+key, err)}
	}
	return &objectFile{r: r, lim: io.LimitReader(r, limit+1), cancel: cancel, ctx: f.b.ctx, key: f.b.name + "/" + key,
		info: fileInfo{name: path.Base(name), size: r.Size(), mod: r.ModTime()}}, nil
}

// ReadFile reads the file at name whole (fs.ReadFileFS).
func (f *releaseFS) ReadFile(name string) ([]byte, error) {
	file, err := f.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if _, ok := file.(*dirFile); ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("is a folder")}
	}
	return io.ReadAll(file)
}

// ReadDir lists the folder at name (fs.ReadDirFS), from one listing of
// the objects under DATE/ and the sources the manifest lists whose
// content objects are in the bucket.
func (f *releaseFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if err := f.listing(); err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	entries, ok := f.tree[name]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(entries), nil
}

// Stat describes the file or folder at name (fs.StatFS), from the
// listing.
func (f *releaseFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if err := f.listing(); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if fi, ok := f.files[name]; ok {
		return fi, nil
	}
	if _, ok := f.tree[name]; ok {
		return &fileInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (f *releaseFS) openDir(name string) (fs.File, error) {
	if err := f.listing(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	entries, ok := f.tree[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &dirFile{info: fileInfo{name: path.Base(name), dir: true}, entries: slices.Clone(entries)}, nil
}

// listing reads the release's tree once: every object under DATE/ but
// the site's, and every listed source whose content object exists.
func (f *releaseFS) listing() error {
	if err := f.load(); err != nil {
		return err
	}
	f.treeOnce.Do(func() {
		f.files = map[string]*fileInfo{}
		prefix := f.date + "/"
		it := f.b.bb.List(&blob.ListOptions{Prefix: prefix})
		for {
			obj, err := it.Next(f.b.ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				f.treeErr = storeErr(f.b.ctx, "listing "+f.Name(), err)
				return
			}
			name := strings.TrimPrefix(obj.Key, prefix)
			lf, listed := f.listed[name]
			if obj.IsDir || !fs.ValidPath(name) || hidden(name) || (listed && strings.HasPrefix(lf.Path, format.SourcesDir)) {
				continue
			}
			f.files[name] = &fileInfo{name: path.Base(name), size: obj.Size, mod: obj.ModTime}
		}
		for name, lf := range f.listed {
			if !strings.HasPrefix(name, format.SourcesDir) {
				continue
			}
			a, err := f.b.bb.Attributes(f.b.ctx, format.ContentPath(lf.SHA256))
			if isNotFound(err) {
				continue
			}
			if err != nil {
				f.treeErr = storeErr(f.b.ctx, "listing "+f.Name(), err)
				return
			}
			f.files[name] = &fileInfo{name: path.Base(name), size: a.Size, mod: a.ModTime}
		}
		f.tree = map[string][]fs.DirEntry{".": nil}
		for name, fi := range f.files {
			for dir, child := path.Dir(name), fs.DirEntry(fs.FileInfoToDirEntry(fi)); ; {
				_, seen := f.tree[dir]
				f.tree[dir] = append(f.tree[dir], child)
				if seen || dir == "." {
					break
				}
				child = fs.FileInfoToDirEntry(&fileInfo{name: path.Base(dir), dir: true})
				dir = path.Dir(dir)
			}
		}
		for _, entries := range f.tree {
			slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		}
	})
	return f.treeErr
}

// objectFile is an object being read, at most the bytes its manifest
// entry lists and one more (so that a longer object is seen to differ),
// within the bucket's context and the read timeout.
type objectFile struct {
	r      *blob.Reader
	lim    io.Reader
	cancel context.CancelFunc
	ctx    context.Context
	key    string
	info   fileInfo
}

func (o *objectFile) Stat() (fs.FileInfo, error) { return &o.info, nil }

func (o *objectFile) Read(p []byte) (int, error) {
	n, err := o.lim.Read(p)
	if err != nil && err != io.EOF {
		err = storeErr(o.ctx, "reading "+o.key, err)
	}
	return n, err
}

func (o *objectFile) Close() error {
	defer o.cancel()
	return o.r.Close()
}

// memFile is the manifest, served from the bytes read once.
type memFile struct {
	*bytes.Reader
	info fileInfo
}

func (m *memFile) Stat() (fs.FileInfo, error) { return &m.info, nil }
func (m *memFile) Close() error               { return nil }

type dirFile struct {
	info    fileInfo
	entries []fs.DirEntry
	off     int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return &d.info, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fmt.Errorf("is a folder")}
}
func (d *dirFile) Close() error { return nil }

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.off += len(rest)
	return rest, nil
}

// fileInfo describes an object (a regular file, read-only) or a folder.
type fileInfo struct {
	name string
	size int64
	mod  time.Time
	dir  bool
}

func (fi *fileInfo) Name() string { return fi.name }
func (fi *fileInfo) Size() int64  { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode {
	if fi.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (fi *fileInfo) ModTime() time.Time { return fi.mod }
func (fi *fileInfo) IsDir() bool        { return fi.dir }
func (fi *fileInfo) Sys() any           { return nil }
