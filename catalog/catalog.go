// Package catalog holds the dated snapshots that the HTTP API (api/), the
// website (site/) and the MCP server (mcpserver/) answer from, and is the
// one place that prices and lists: the command line's carbon and list read
// their snapshot through it too (FromLoaded), so every surface answers with
// the same objects (Carbon, DiffusionCarbon, ModelList, TaskModelList,
// TaskList, GridList; schemas/carbon.schema.json, carbon-diffusion.schema.json,
// list-models.schema.json, list-task-models.schema.json, list-tasks.schema.json,
// list-grids.schema.json), for every task the snapshot has files of (task.go). It loads every snapshot
// folder under a directory once: each file is read through the regular-file
// guard (internal/regfile), checked against the manifest (size and sha256)
// and against its JSON Schema, and the published files and archived JSON
// sources are kept in memory, each published configuration paired with
// the archived upstream row behind it. Nothing is read from disk to answer
// a request.
//
// The snapshots are the releases of a store (snapshots/store: a folder of
// dated folders, or a bucket of releases, snapshots/bucket), each known by
// its manifest's sha256 (format.Release): a rescan reads each dated
// folder's manifest.json, or a bucket's releases.json alone, which lists
// every release's manifest sha256, and loads a release only when its
// manifest is new. A served date is immutable: once loaded, its
// verified copy is what every surface answers for that date until the
// process restarts. A served folder whose manifest changes on disk
// (replaced by build --replace, the folder turned into a symbolic link) is
// logged and not loaded again; a deleted one stops being served, and a
// folder that later reappears under that date is served again only with
// the same manifest. A folder that fails its checks is logged and tried
// again once its manifest changes, or, when a file the manifest lists was
// missing or not as listed, once that file is in place: so a folder copied
// in any order of files is served once it is complete. A symbolic link,
// named pipe, device or socket as a dated folder, as its manifest.json or
// at a path the manifest lists is refused and logged. "latest" names the
// greatest date served.
//
// Prices come from the archived upstream rows, unrounded, with the index's
// own rules (FindModel, pricing.Lookup, pricing.KgPerBillionTokens, the index
// row rule of pricing.BestWith): see Price.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/leadgreen/greentokens/snapshots/store"
)

// Latest is the name that stands for the greatest date served.
const Latest = "latest"

// Catalog is the set of snapshots served from one directory. It is safe for
// concurrent use; a *Snapshot never changes.
type Catalog struct {
	dir   string // the store, as messages name it
	store store.Store
	log   *slog.Logger

	scan sync.Mutex // one Rescan at a time

	mu    sync.RWMutex
	snaps map[string]*Snapshot
	dates []string // served dates, ascending

	// Guarded by scan: what the last scans saw of each dated entry, and the
	// manifest sha256 of each date served since the start (a date stays
	// bound to those bytes until restart, even once its folder is deleted).
	seen  map[string]seen
	bound map[string]string
}

// seen is what a scan saw of a dated entry: its manifest's sha256, or why
// it could not be opened; and, when its load failed on a listed file that
// was missing or not as listed (a *store.FileError), that error, so that
// the file alone is checked again at the next scans.
type seen struct {
	key     string
	missing error
}

// New is a catalog of the dated folders under dir that serves nothing until
// Rescan (or Run) loads them: a server can listen first.
func New(dir string, log *slog.Logger) *Catalog {
	return NewStore(store.Folder(dir), log)
}

// NewStore is a catalog of the releases of s (a store.Folder, a bucket),
// named in messages as fmt.Sprint(s) names it, that serves nothing until
// Rescan (or Run) loads them.
func NewStore(s store.Store, log *slog.Logger) *Catalog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Catalog{dir: fmt.Sprint(s), store: s, log: log, snaps: map[string]*Snapshot{}, seen: map[string]seen{}, bound: map[string]string{}}
}

// Open is New and Load. A folder that fails its checks is logged and left
// out; Open fails only when dir cannot be read. A catalog with no snapshot
// is not an error: Ready says whether one is served.
func Open(dir string, log *slog.Logger) (*Catalog, error) {
	return OpenStore(store.Folder(dir), log)
}

// OpenStore is NewStore and Load.
func OpenStore(s store.Store, log *slog.Logger) (*Catalog, error) {
	c := NewStore(s, log)
	if _, err := c.Load(); err != nil {
		return nil, err
	}
	return c, nil
}

// Load is the first Rescan of a server starting. When it leaves nothing
// served (the folder holds no dated folder, or none that passes its
// checks), a warning names the folder and says there is nothing to
// serve; the server answers every snapshot not found until one is.
func (c *Catalog) Load() ([]string, error) {
	added, err := c.Rescan()
	if err != nil {
		return nil, err
	}
	if !c.Ready() {
		c.scan.Lock()
		dated := len(c.seen)
		c.scan.Unlock()
		c.log.Warn("nothing to serve: the snapshots folder holds no dated snapshot (YYYY-MM-DD/) that passes its checks; every snapshot is answered not found until one is served",
			"dir", c.dir, "dated_folders", dated)
	}
	return added, nil
}

// Rescan looks at every dated entry (YYYY-MM-DD) of the store, loads
// the releases whose manifest is new since the last scan and that are not
// served yet, stops serving the dates whose release is gone, and returns
// the dates it added. An entry is loaded again only when its manifest.json's
// sha256 changed, or when the listed file that failed its last load is in
// place now; one bad release never stops the scan of the others. An entry
// whose store lists its manifest sha256 (a bucket's releases.json) is not
// read at all while that sha256 is the one the last scan read.
func (c *Catalog) Rescan() ([]string, error) {
	c.scan.Lock()
	defer c.scan.Unlock()
	ctx := context.Background()
	entries, err := c.store.Entries(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: reading the snapshots of %s: %w", c.dir, err)
	}
	var added []string
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Date] = true
		if c.look(ctx, e) {
			added = append(added, e.Date)
		}
	}
	for date := range c.seen {
		if present[date] {
			continue
		}
		delete(c.seen, date)
		c.mu.Lock()
		_, served := c.snaps[date]
		c.drop(date)
		c.mu.Unlock()
		if served {
			c.log.Warn("snapshot folder deleted; no longer served", "date", date)
		}
	}
	return added, nil
}

// look examines the dated entry e and serves it when it is new, complete
// and passes its checks; it reports whether it began serving it. c.scan is
// held.
func (c *Catalog) look(ctx context.Context, e store.Entry) bool {
	date := e.Date
	if last := c.seen[date]; e.Err == nil && e.ManifestSHA256 != "" && last.key == e.ManifestSHA256 && last.missing == nil {
		return false // the store lists the manifest read at the last scan
	}
	var rel *store.Release
	refusal := e.Err
	if refusal == nil {
		rel, refusal = store.Open(ctx, c.store.FS(date), c.store.Name(date))
	}
	var key string
	if rel != nil {
		key = rel.ID.ManifestSHA256
	} else {
		key = "refused: " + refusal.Error()
	}
	last := c.seen[date]
	if last.key == key && (last.missing == nil || rel.CheckListed(ctx, last.missing) != nil) {
		return false // the same manifest, and the file its load missed still missing
	}
	c.seen[date] = seen{key: key}
	c.mu.RLock()
	old, served := c.snaps[date]
	c.mu.RUnlock()
	switch {
	case served:
		change := "its manifest.json changed"
		if refusal != nil {
			change = refusal.Error()
		}
		c.log.Warn("snapshot folder changed on disk; still serving the copy verified when it was loaded (a served date is immutable: restart to serve the new folder)",
			"date", date, "manifest_sha256", old.Info().Manifest, "change", change)
		return false
	case refusal != nil:
		c.log.Error("snapshot not served", "date", date, "err", refusal)
		return false
	}
	s, err := load(ctx, rel, date)
	if err != nil {
		var fe *store.FileError
		if errors.As(err, &fe) {
			c.seen[date] = seen{key: key, missing: err}
		}
		c.log.Error("snapshot not served", "date", date, "err", err)
		return false
	}
	if was, ok := c.bound[date]; ok && was != s.Info().Manifest {
		c.log.Error("snapshot not served: this date was served with other bytes since the server started (a served date is immutable: restart to serve the new folder)",
			"date", date, "manifest_sha256", s.Info().Manifest, "served_manifest_sha256", was)
		return false
	}
	c.bound[date] = s.Info().Manifest
	c.mu.Lock()
	c.snaps[date] = s
	c.dates = append(c.dates, date)
	sort.Strings(c.dates)
	c.mu.Unlock()
	c.log.Info("snapshot served", "date", date, "models", len(s.Models), "grid_year", s.GridYear)
	return true
}

// load checks every file the release rel lists against its manifest
// (through the store's regular-file guard) and against its schemas, and
// reads its published files and archived JSON sources into memory. The
// manifest's date must be date.
func load(ctx context.Context, rel *store.Release, date string) (*Snapshot, error) {
	if err := rel.Load(ctx); err != nil {
		return nil, err
	}
	return fromLoaded(rel, date)
}

// drop stops serving date, if it is served; c.mu is held.
func (c *Catalog) drop(date string) {
	if _, ok := c.snaps[date]; !ok {
		return
	}
	delete(c.snaps, date)
	c.dates = slices.DeleteFunc(c.dates, func(d string) bool { return d == date })
}

// Run rescans every interval until ctx is done. A failed scan is logged.
func (c *Catalog) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := c.Rescan(); err != nil {
				c.log.Error("rescan failed", "err", err)
			}
		}
	}
}

// Ready reports whether at least one snapshot is served.
func (c *Catalog) Ready() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.dates) > 0
}

// Dates returns the served dates, ascending.
func (c *Catalog) Dates() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]string(nil), c.dates...)
}

// Snapshots returns the served snapshots, by ascending date.
func (c *Catalog) Snapshots() []*Snapshot {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*Snapshot, len(c.dates))
	for i, d := range c.dates {
		out[i] = c.snaps[d]
	}
	return out
}

// Snapshot returns the snapshot of date, or the latest for "latest" or "".
// An unknown date is a NotFound error naming the nearest dates; a name
// over MaxNameBytes is Invalid.
func (c *Catalog) Snapshot(date string) (*Snapshot, error) {
	if err := checkName("snapshot", date); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if date == "" || date == Latest {
		if len(c.dates) == 0 {
			return nil, &Error{Kind: NotFound, What: "snapshot", Query: Latest, Detail: "no snapshot is served yet"}
		}
		return c.snaps[c.dates[len(c.dates)-1]], nil
	}
	if s, ok := c.snaps[date]; ok {
		return s, nil
	}
	return nil, notFound("snapshot", date, nearest(date, c.dates))
}
