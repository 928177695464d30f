package ingest

import (
	"io"

	"github.com/tracetui/tracetui/ingest/pstree"
)

// maxProcessTable bounds the process tree section read at open: far more
// than the 30 or so bytes a thread takes at millions of threads.
const maxProcessTable = 1 << 30

// ProcessTable returns the process tree stored with the index, or nil when
// the index has none (built before it was stored) or it is damaged: the
// browser then reads it from the history with [pstree.Query], which also
// reports a damaged history.
func (t *Index) ProcessTable() *pstree.Table {
	sec, err := t.tree.Section(pstree.SectionName)
	if err != nil || sec.Size() > maxProcessTable {
		return nil
	}
	data := make([]byte, sec.Size())
	if _, err := io.ReadFull(sec, data); err != nil {
		return nil
	}
	ps, err := pstree.Decode(data)
	if err != nil {
		return nil
	}
	return ps
}
