package ingest

import (
	"errors"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/pstree"
)

// maxProcessTable bounds the process tree section read at open: far more
// than the 30 or so bytes a thread takes at millions of threads.
const maxProcessTable = 1 << 30

// ProcessTable returns the process tree stored with the index, or nil when
// the index has none (built before it was stored) or it is damaged: the
// browser then reads it from the history with [pstree.Query], which also
// reports a damaged history. A damaged section marks the index bad, as a
// damaged node does (see damage.check), so the next open rebuilds it.
func (t *Index) ProcessTable() *pstree.Table {
	sec, err := t.tree.Section(pstree.SectionName)
	if errors.Is(err, history.ErrNoSection) {
		return nil
	}
	if err == nil && sec.Size() > maxProcessTable {
		err = fmt.Errorf("%w: process tree section of %d bytes", history.ErrCorrupt, sec.Size())
	}
	var ps *pstree.Table
	if err == nil {
		data := make([]byte, sec.Size())
		if _, err = io.ReadFull(sec, data); err == nil {
			if ps, err = pstree.Decode(data); err != nil {
				err = fmt.Errorf("%w: process tree section: %w", history.ErrCorrupt, err)
			}
		}
	}
	if err != nil {
		t.damage.check(err)
		return nil
	}
	return ps
}
