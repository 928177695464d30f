// Package overview is the aggregated overview screen (o: temporal, O:
// spatiotemporal): its keys, its reports, its title and legend, and the
// drawing of the significant partitions in Ocelotl's mode view. The
// model (the plan, the microscopic model and the aggregation's call) is
// package model below this folder, over package aggregate's algorithms.
//
// It imports ui, frame, core, keymap and its model; never package tui,
// gantt nor another screen.
package overview
