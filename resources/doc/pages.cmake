# The user guide's pages, bundled into the explorer as the Qt resource :/doc (Help ▸ User Guide).
# A page added to resources/doc goes here too; the GUI test UserGuide.BundlesEveryPage says so.
set(TESSERA_GUIDE_PAGES
  index.md
  optimise-your-model.md
  graph-view.md
  egraph-view.md
  mcts-view.md
  guided-search.md
  teaching-sample.md
  cost-models.md
  rl-agents.md
  agents-rlflow.md
  kernel-tuning.md
  slurm-cluster.md
  sessions-and-replay.md
  command-reference.md
  benchmark-suites.md
  results.md
  developing.md
  notes/index.md
  notes/onnx-runtime.md
  notes/lrn.md
  notes/ui-stalls.md
  notes/op-costs.md
  notes/measurement-history.md
  notes/tuning-measurements.md)
