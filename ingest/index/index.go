package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
	"github.com/tracetui/tracetui/ingest/index/profile"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/ingest/states"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// Options says how to open a trace.
type Options struct {
	// Format forces a format ("ctf", "chrome", ...); "" detects it.
	Format string
	// IndexPath puts the index there instead of the cache directory.
	IndexPath string
	// Layout is the history layout of a new index (default: rsht).
	Layout history.Layout
	// Arch names raw system call numbers with that architecture's table
	// (x86_64, i386, aarch64, arm, riscv64) instead of the one the trace
	// records, or the machine's when it records none.
	Arch string
	// Rebuild builds the index even if a valid one exists.
	Rebuild bool
	// CacheBytes bounds the history's node cache (0: its default).
	CacheBytes int64
	// Progress, if set, receives the build's progress in bytes of the
	// trace read.
	Progress func(done, total int64)
	// Waiting, if set, is called once when another process is building
	// the same index and this one waits for it.
	Waiting func()
	// Reclaim, when set, is called where a build leaves much garbage
	// (see history.Options.Reclaim): the command line's memory policy.
	Reclaim func(returnToOS bool)
}

// Index is the result of the index lifecycle: an opened index file (the
// history for state queries, the event index) and the way to read its
// trace again. Package ingest/trace reads it (event table, filters,
// statistics, queries). Safe for concurrent use.
type Index struct {
	info    IndexInfo
	tree    *history.Tree
	events  *eventindex.Index
	sources *sourcePool // nil for an index opened without its trace
	built   bool
	damage  *damage
}

// Locate returns the index path for a trace and whether a valid index is
// already there, without building anything (the browser uses it to decide
// whether to show the indexing screen).
func Locate(path string, opts Options) (indexPath string, ready bool, err error) {
	abs, fp, indexPath, err := locate(path, opts)
	if err != nil {
		return "", false, err
	}
	t, err := openIndex(indexPath, abs, fp, opts, false)
	if err != nil {
		return indexPath, false, nil
	}
	t.Close()
	return indexPath, true, nil
}

func locate(path string, opts Options) (abs, fp, indexPath string, err error) {
	if abs, err = filepath.Abs(path); err != nil {
		return "", "", "", err
	}
	files, err := traceFiles(abs)
	if err != nil {
		return "", "", "", fmt.Errorf("reading the trace: %w", err)
	}
	fp = fingerprint(abs, files, indexVersions(opts))
	indexPath = opts.IndexPath
	if indexPath != "" {
		// A FIFO or a device named as the index is said to be one here,
		// for every command, before anything opens it.
		if st, err := os.Stat(indexPath); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
			return "", "", "", fmt.Errorf("%w: --index %s is not a regular file (%s); name a file", ErrIndexPath, indexPath, st.Mode().Type())
		}
	}
	if indexPath == "" {
		dir, err := CacheDir()
		if err != nil {
			return "", "", "", err
		}
		indexPath = filepath.Join(dir, cacheName(abs, fp))
	}
	return abs, fp, indexPath, nil
}

// indexVersions names everything that shapes an index, so a change to any
// of them gives another fingerprint.
func indexVersions(opts Options) string {
	return "history" + strconv.Itoa(history.FormatVersion) + "-states:" + states.Version() +
		"-formats:" + ingest.Versions() + "-pstree" + strconv.Itoa(pstree.RowsVersion) +
		"-kstats" + strconv.Itoa(kstats.Version) + "-profile" + strconv.Itoa(profile.Version) +
		"-format=" + opts.Format + "-layout=" + opts.Layout.String() + "-arch=" + opts.Arch
}

// Open opens the trace at path with its index, building the index first
// if there is none, it is stale (the trace changed), corrupt, or of
// another version. Two processes opening the same trace build it once.
// The trace's files are only read.
func Open(ctx context.Context, path string, opts Options) (*Index, error) {
	abs, fp, indexPath, err := locate(path, opts)
	if err != nil {
		return nil, err
	}
	if !opts.Rebuild {
		if t, err := openIndex(indexPath, abs, fp, opts, true); err == nil {
			markUsed(indexPath, opts)
			return t, nil
		}
	}
	if opts.IndexPath != "" {
		if err := checkIndexPath(indexPath, abs); err != nil {
			return nil, err
		}
	}
	mode, err := prepareIndexDir(indexPath, abs, opts)
	if err != nil {
		return nil, err
	}
	lock, err := acquireLock(ctx, indexPath, opts.Waiting)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	// Another process may have built it while this one waited: then even
	// a rebuild request (`tracetui index`) takes it, built a moment ago
	// from the same trace content (issue 18: two concurrent runs built
	// twice).
	if !opts.Rebuild || lock.waited {
		if t, err := openIndex(indexPath, abs, fp, opts, true); err == nil {
			markUsed(indexPath, opts)
			return t, nil
		}
	}
	// Readers that read the whole trace while opening (Chrome's sort)
	// report the first half of the progress, the build the rest.
	prog := &phasedProgress{fn: opts.Progress}
	src, err := ingest.OpenSource(abs, opts.Format, ingest.OpenEnv{TempDir: filepath.Dir(indexPath), Progress: prog.first, Context: ctx})
	if err != nil {
		return nil, err
	}
	err = build(ctx, buildRequest{src: src, path: indexPath, layout: opts.Layout, arch: opts.Arch, trace: abs, fingerprint: fp, progress: prog.second, reclaim: opts.Reclaim, mode: mode})
	src.Close()
	if errors.Is(err, syscall.ENOSPC) {
		// Said first: the write that failed may be deep in an analysis.
		return nil, fmt.Errorf("no space left on the disk of %s while writing the index: free some space, or put the index on another disk with --index FILE (%w)", filepath.Dir(indexPath), err)
	}
	if err != nil {
		return nil, err
	}
	t, err := openIndex(indexPath, abs, fp, opts, true)
	if err != nil {
		return nil, fmt.Errorf("the index just built does not open: %w", err)
	}
	t.built = true
	if opts.IndexPath == "" {
		// Best effort: a cache that cannot be pruned still works. A
		// malformed bound is reported by `tracetui cache`; here only
		// superseded and stale files go.
		bounds, err := CacheBoundsFromEnv()
		if err != nil {
			bounds = CacheBounds{}
		}
		PruneCache(filepath.Dir(indexPath), indexPath, bounds, time.Now())
	}
	return t, nil
}

// markUsed sets the modification time of a reused cache index to now, so
// the cache's age bound and its oldest-first pruning count from the last
// use, not the build. An index named with --index is left alone.
func markUsed(indexPath string, opts Options) {
	if opts.IndexPath == "" {
		now := time.Now()
		os.Chtimes(indexPath, now, now)
	}
}

// openIndex opens an existing index and checks it belongs to this exact
// trace content. Any problem is an error: the caller rebuilds. With
// attributes, the attribute tree is loaded (and so checked) now; without,
// only what Locate needs is read (header, trace facts, event index).
func openIndex(indexPath, abs, fp string, opts Options, attributes bool) (*Index, error) {
	tree, err := history.Open(indexPath, history.OpenOptions{CacheBytes: opts.CacheBytes})
	if err != nil {
		return nil, err
	}
	t, err := newIndex(tree, indexPath, attributes, &sourcePool{path: abs, env: ingest.OpenEnv{TempDir: filepath.Dir(indexPath)}})
	if err != nil {
		tree.Close()
		return nil, err
	}
	if t.info.Fingerprint != fp && !(opts.IndexPath != "" && sameTraceOtherLayout(t, abs, opts)) {
		t.Close()
		return nil, errors.New("the index was built from another version of the trace")
	}
	t.damage.inCache = opts.IndexPath == ""
	return t, nil
}

// sameTraceOtherLayout reports whether t, an index named with --index,
// is current for the trace at abs in the layout it was built with: an
// index named explicitly is used as it is, whatever its layout (issue 16:
// `index --layout esht --index X` then `bench paper --index X` rebuilt X
// as rsht, and `info --index X` refused it).
func sameTraceOtherLayout(t *Index, abs string, opts Options) bool {
	l, err := history.ParseLayout(t.info.Layout)
	if err != nil || l == opts.Layout {
		return false
	}
	o := opts
	o.Layout = l
	_, fp, _, err := locate(abs, o)
	return err == nil && fp == t.info.Fingerprint
}

// newIndex wires an opened history file: trace info, event index, and
// the attribute tree when asked (about a second per million attributes:
// the browser and queries need it, `info` and Locate do not). sources
// reads the trace for the event table; nil for an index opened alone.
func newIndex(tree *history.Tree, path string, attributes bool, sources *sourcePool) (*Index, error) {
	info, err := readInfo(tree, path)
	if err != nil {
		return nil, err
	}
	if attributes {
		if _, err := tree.LoadAttributes(); err != nil {
			return nil, err
		}
	}
	sec, err := tree.Section(sectionEvents)
	if err != nil {
		return nil, err
	}
	x, err := eventindex.Open(sec, sec.Size())
	if err != nil {
		return nil, err
	}
	if x.Events() != info.Events {
		return nil, fmt.Errorf("%w: %d events indexed, %d recorded", history.ErrCorrupt, x.Events(), info.Events)
	}
	t := &Index{info: info, tree: tree, events: x, sources: sources, damage: newDamage(path, info.Trace, false)}
	if sources != nil {
		sources.format, sources.damage = info.Format, t.damage
		sources.env.Indexed, sources.env.Pages = seekOnly(info), true
		if sec, err := tree.Section(sectionChromeOrder); err == nil {
			sources.order = sec
		} else if !errors.Is(err, history.ErrNoSection) {
			return nil, err
		}
		if sec, err := tree.Section(sectionReaderState); err == nil {
			sources.state = sec
		} else if !errors.Is(err, history.ErrNoSection) {
			return nil, err
		}
	}
	return t, nil
}

// OpenIndexFile opens an index file alone (for `tracetui info`), without
// the trace: state queries work (the attribute tree loads on first use),
// OpenSource does not.
func OpenIndexFile(path string, opts Options) (*Index, error) {
	tree, err := history.Open(path, history.OpenOptions{CacheBytes: opts.CacheBytes})
	if err != nil {
		return nil, err
	}
	t, err := newIndex(tree, path, false, nil)
	if err != nil {
		tree.Close()
		return nil, err
	}
	return t, nil
}

// Info describes the trace and its index.
func (t *Index) Info() IndexInfo { return t.info }

// Built reports whether Open built the index (rather than reusing one).
func (t *Index) Built() bool { return t.built }

// History returns the state history. A query that meets a damaged node
// returns an error matching [ErrDamaged] saying how the index is rebuilt;
// an index in the cache is then removed, so the next open rebuilds it.
func (t *Index) History() core.History { return guardedHistory{t.tree, t.damage} }

// Tree returns the history file, for its Info and Check.
func (t *Index) Tree() *history.Tree { return t.tree }

// EventIndex returns the index of the trace's events by rank and time.
func (t *Index) EventIndex() *eventindex.Index { return t.events }

// OpenSource opens a new, independent reader of the indexed trace, to be
// closed by the caller (the event table and each filter worker own one).
func (t *Index) OpenSource() (core.Source, error) {
	if t.sources == nil {
		return nil, errors.New("no trace attached to this index")
	}
	return t.sources.open()
}

// Close releases the files. Readers from OpenSource must be closed first.
func (t *Index) Close() error {
	if t.sources != nil {
		t.sources.close()
	}
	return t.tree.Close()
}

// phasedProgress reports a two-phase build (reading while opening, then
// indexing) as one progress: when the first phase reports anything, it
// takes the first half.
type phasedProgress struct {
	fn    func(done, total int64)
	split bool
}

func (p *phasedProgress) first(done, total int64) {
	if p.fn != nil {
		p.split = true
		p.fn(done/2, total)
	}
}

func (p *phasedProgress) second(done, total int64) {
	switch {
	case p.fn == nil:
	case p.split:
		p.fn(total/2+done/2, total)
	default:
		p.fn(done, total)
	}
}

// prepareIndexDir creates the index's directory if needed and returns the
// permission bits of the index file. An index holds every command line,
// process and file name of the traced machine: the cache directory is
// private to the user (0700, made so when an older tracetui left it
// open) and its files 0600; an --index file gets the trace's own read
// bits at most (and never more than 0644), so it is no more readable than
// the trace it describes.
func prepareIndexDir(indexPath, trace string, opts Options) (os.FileMode, error) {
	dir := filepath.Dir(indexPath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("index directory: %w", err)
	}
	if opts.IndexPath == "" {
		if st, err := os.Stat(dir); err == nil && st.Mode().Perm() != 0o700 {
			if err := os.Chmod(dir, 0o700); err != nil {
				return 0, fmt.Errorf("making the cache directory %s private: %w", dir, err)
			}
		}
		return 0o600, nil
	}
	st, err := os.Stat(trace)
	if err != nil {
		return 0, err
	}
	return st.Mode().Perm() & 0o644, nil
}
