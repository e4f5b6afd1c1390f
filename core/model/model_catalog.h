// What the product knows about a model from its provider and id alone, for
// the models a person connects by name (spec 000 §5: provider and model are
// explicit, and effort is checked against the model before spending). The
// OpenAI-compatible /models listing says nothing about efforts, so the
// families that take `reasoning_effort` are kept here; any other model is
// described as taking none, and asking it for an effort is refused.
//
// Thread-safety: pure functions over constant tables.

#ifndef ENSEMBLE_CORE_MODEL_MODEL_CATALOG_H_
#define ENSEMBLE_CORE_MODEL_MODEL_CATALOG_H_

#include <span>
#include <string>
#include <string_view>

#include "core/model/chat_request.h"

namespace ensemble::core::model {

// A model as a person has it set up: who serves it and what it offers.
struct ModelChoice {
  std::string provider;  // "openai", "azure", "ollama", ...
  ModelInfo info;        // DescribeModel's.
};

// Every effort name any known model takes, lowest first.
std::span<const std::string_view> KnownEfforts();

// The description of `model_id` as served by `provider` ("openai", "azure",
// "ollama", ...): the id itself, tools on, and the efforts of its family
// (matched on the id's leading name, case-insensitively, so dated snapshots
// such as "o3-2025-04-16" and "gpt-5-mini" count). A provider that serves
// other vendors' models under their own names (Ollama, vLLM, llama.cpp's
// server) gets no efforts: those servers do not take reasoning_effort.
ModelInfo DescribeModel(std::string_view provider, std::string_view model_id);

// {provider, DescribeModel(provider, model_id)}.
ModelChoice ChooseModel(std::string_view provider, std::string_view model_id);

}  // namespace ensemble::core::model

#endif  // ENSEMBLE_CORE_MODEL_MODEL_CATALOG_H_
