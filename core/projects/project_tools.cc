// Projects and deliverables (playbooks/projects.md).

#include "core/projects/project_tools.h"

#include <utility>
#include <vector>

#include "core/projects/project.h"
#include "core/projects/project_tool_runs.h"
#include "core/tools/tool_table.h"

namespace ensemble::core::projects {
namespace {

using namespace tools::table;  // NOLINT: the table's vocabulary.

constexpr std::size_t kMaxDeliverables = 50;
constexpr std::size_t kMaxPeoplePerProject = 50;

json ProjectStatusEnum() { return Enum({"active", "done", "archived"}); }

json ProjectFields(bool for_update) {
  json due = Date();
  json start = Date();
  if (for_update) {
    due = Nullable(due);
    start = Nullable(start);
  }
  return {{"title", Text(projects::kMaxTitleChars)},
          {"description", Str(projects::kMaxDescriptionChars)},
          {"status", ProjectStatusEnum()},
          {"start", start},
          {"due", due},
          {"personIds", Array(Id(), kMaxPeoplePerProject, "The complete list")},
          {"deliverables", Array(Object({{"id", Id("Keep an existing deliverable's id")},
                                         {"title", Text(projects::kMaxTitleChars)},
                                         {"due", Nullable(Date())},
                                         {"done", Bool()}},
                                        {"title"}),
                                 kMaxDeliverables, "The complete list; read it first")}};
}

}  // namespace

Status RegisterProjectTools(tools::ToolRegistry& registry) {
  std::vector<tools::ToolDef> defs = {
      Read("hub_list_projects", areas::kProjects, "Find projects by name; gives ids and status.",
           Object(WithPaging({{"query", Str(kMaxQueryChars)}, {"status", ProjectStatusEnum()}})),
           {.run = RunListProjects}),
      Write("hub_create_project", areas::kProjects,
            "Create a project with the name, description, people and dates the person gave.",
            Object(ProjectFields(false), {"title"}), Risk::kLow, true,
            {.preview = PreviewCreateProject, .run = RunCreateProject}),
      Write("hub_update_project", areas::kProjects,
            "Change or complete a project; deliverables are the complete list.",
            Object({{"id", Id()},
                    {"fields", Object(ProjectFields(true))},
                    {"base", {{"type", "object"}, {"maxProperties", 10}}}},
                   {"id", "fields"}),
            Risk::kLow, true,
            {.prepare = PrepareUpdateProject,
             .preview = PreviewUpdateProject,
             .run = RunUpdateProject}),
      Write("hub_delete_projects", areas::kProjects,
            "Move projects to Trash; their tasks stay unless deleteTasks is true.",
            Object({{"ids", Ids()}, {"deleteTasks", Bool()}}, {"ids"}), Risk::kHigh, true,
            {.prepare = PrepareDeleteProjects,
             .preview = PreviewDeleteProjects,
             .run = RunDeleteProjects}),
  };
  return tools::RegisterAll(registry, std::move(defs));
}

}  // namespace ensemble::core::projects
