// Package model computes the browser's aggregated overviews (o:
// temporal, O: spatiotemporal), after Ocelotl (Dosimont's thesis,
// chapters 5-7), over plain inputs: a [Shape] (the rows' status
// attributes, grouped into the leaves of a hierarchy) and a core.History.
//
// The range is cut into |T| slices and the rows' state times read into a
// microscopic [Model] ([BuildModel]: 2D queries by chunks of rows, on
// every core); [Compute] then runs the temporal or spatiotemporal
// dichotomy of package aggregate and returns the significant partitions
// (increasing p) with the one to show first (the knee of the gain and
// loss curves). Its cost is estimated first ([PlanOf]): over the budget,
// |T| is reduced and, for the temporal aggregation, rows are summed into
// their groups. Everything is cancellable through the context and safe to
// run off the UI goroutine: the inputs are read only.
//
// The screen (keys, drawing the mode view, building the Shape from the
// Gantt's row tree) is package overview above this folder; this
// package draws nothing and imports neither Bubble Tea nor ui.
package model
