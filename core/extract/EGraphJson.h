// The egraph-serialize JSON format (extraction-gym, egraph-visualizer):
//   {"nodes": {id: {"op", "cost", "eclass", "children": [node ids]}}, "root_eclasses": [class ids]}
// Children are node ids; a child stands for its node's class.
#pragma once

#include "extract/ExtractionProblem.h"

#include <string>

namespace tessera::extract {

// Reads a file. Nodes keep their ids in `nodeNames`, classes in `classNames`; nodes are numbered in
// key order, classes in order of first appearance. Optional "subsumed": true drops a node (egglog);
// optional "class_data" must name existing classes; other top-level keys are ignored.
// Throws tessera::Error("<path>: ...") for unreadable files, malformed JSON, missing fields, wrong
// types, negative or non-finite costs, dangling child ids, unknown or missing root classes and
// empty classes, naming the node or class concerned.
ExtractionProblem readEGraphJson(const std::string& path);

// The same from text in memory; `source` names it in error messages.
ExtractionProblem parseEGraphJson(const std::string& text, const std::string& source);

// Writes `problem` in the same format (each child class is written as its first node's id).
// Unnamed nodes and classes get their index as id. Throws tessera::Error if it cannot write.
void writeEGraphJson(const ExtractionProblem& problem, const std::string& path);

} // namespace tessera::extract
