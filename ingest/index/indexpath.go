package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tracetui/tracetui/history"
)

// ErrIndexPath is wrapped by the errors for an --index path that tracetui
// refuses to write.
var ErrIndexPath = errors.New("refusing to write the index there")

// checkIndexPath refuses, before anything is built, an index path that
// would destroy data or the trace itself (issue 18): a directory, an
// existing file that is not a tracetui index (the trace, a CTF metadata,
// any unrelated file: only nothing or a tracetui index, by its magic, is
// overwritten), and any path inside the trace (a CTF directory would
// then list the index as a stream).
func checkIndexPath(indexPath, trace string) error {
	abs, err := filepath.Abs(indexPath)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(trace, abs); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
		if rel == "." {
			return fmt.Errorf("%w: --index %s is the trace itself; name another file", ErrIndexPath, indexPath)
		}
		return fmt.Errorf("%w: --index %s is inside the trace directory %s, where it would be read as a stream; name a file outside it", ErrIndexPath, indexPath, trace)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--index %s: %w", indexPath, err)
	case st.IsDir():
		return fmt.Errorf("%w: --index %s is a directory; name a file (e.g. %s)", ErrIndexPath, indexPath, filepath.Join(indexPath, filepath.Base(trace)+".tti"))
	case !st.Mode().IsRegular():
		return fmt.Errorf("%w: --index %s is not a regular file", ErrIndexPath, indexPath)
	case st.Size() > 0 && !history.HasMagic(abs):
		return fmt.Errorf("%w: --index %s exists and is not a tracetui index; name a new file (or remove it yourself)", ErrIndexPath, indexPath)
	}
	return nil
}
