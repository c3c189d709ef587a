// Package program predicts whole programs: sequences of kernel launches
// such as the layers of a neural network's forward pass, after Xu's
// layer-sum model (seed 003, Chapter 6, equations (6-4)–(6-8)), on one
// device or split data-parallel across several (Chapter 5, §6.4).
//
// A program file lists the launches; [Parse] reads it, [Program.Bind]
// evaluates its parameters, [Predict] sums a model's kernel predictions
// into per-kernel and per-layer totals ([SumProgram]), and [DataParallel]
// divides the batch across devices in proportion to their predicted
// throughput ([Proportional]), takes the slowest device's share and adds
// the parameter exchange at a given bandwidth ([ParallelStep]).
//
// # Program files
//
// A program file is a sequence of lines; '#' starts a comment that runs to
// the end of the line, and blank lines are ignored. The lines are:
//
//	program NAME                 the program's name (optional, at most once)
//	let NAME = EXPR              a named integer, usable in later expressions
//	batch NAME                   the let that is the batch size, the dimension
//	                             a data-parallel split divides
//	exchange EXPR                bytes of parameters the devices exchange after
//	                             each data-parallel step (default 0)
//	loading SECONDS              t_loading of (6-4), seconds (default 0)
//	update SECONDS               t_update of (6-4), seconds (default 0)
//	layer NAME                   starts a layer; launches belong to the last one
//	phase forward|backward       the pass of the launches that follow (default forward)
//	launch KERNEL [NAME=EXPR]... [const NAME=EXPR]...
//	                             one kernel launch: a .knl file (relative to the
//	                             program file) or a library kernel, its size
//	                             parameters, and after the word const its
//	                             const bindings (work-group sizes)
//
// EXPR is an integer expression: decimal integers, names of earlier lets,
// + - * / with exact division, unary minus and parentheses. In a launch's
// NAME=EXPR arguments the expression may not contain spaces. Names are
// letters, digits and underscores, not starting with a digit. Every error
// names the file and line.
//
// A small CNN's forward pass:
//
//	program cnn-forward
//	let B = 16
//	batch B
//	exchange 4*(16*3*9 + 16)
//	layer conv1
//	launch conv2d.knl b=B c=3 k=16 h=34 w=34 const LX=16 LY=8
//	layer pool1
//	launch maxpool2.knl b=B c=16 ho=16 wo=16
//
// The layer-sum and data-parallel models, and how the thesis is read
// where it is open, are docs/programs.md in the repository.
package program
