#pragma once
/// @file lesson.h
/// Lessons: the RDMA primer's topics in its order (TCP copies, the RDMA idea, the three stacks,
/// the verbs workflow, SEND/RECV, READ, WRITE, atomics, errors and retries, iWARP and rdma_cm,
/// Ceph), each a built-in scenario with narration and checkpoints that ask a question before a
/// step ("which PSN will the next packet carry?") and check the answer. Qt-free.
///
/// A lesson is data (lessons.cpp): its texts are source strings of the translation context
/// "Lesson" (the GUI translates them), and a checkpoint names only which event it asks before
/// and what kind of question it is. Its answer and its choices are computed from the recorded
/// scenario (planLesson): the PSN and opcode from the dissection of the frame the event sends,
/// the host from the event, the responder's reply from the AETH of its next frame, so a lesson
/// can never disagree with the simulation it shows.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/trace.h"
#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

/// What a checkpoint asks about the event it precedes.
enum class CheckpointKind : std::uint8_t {
  Psn,       ///< the BTH PSN of the frame the event sends (a typed number)
  Opcode,    ///< the BTH opcode of the frame the event sends
  Sender,    ///< the host that sends the event's frame
  Cpu,       ///< whose CPU does the event: a host's (a verbs call, a TCP copy, a step of Ceph's
             ///< messenger) or none (the NIC)
  Reply,     ///< how the responder answers: the AETH of the frame the event sends (ACK, NAK...)
  Delivery,  ///< what becomes of the event's frame: accepted, lost, discarded, dropped
  Stack,     ///< the headers of the event's frame, outermost first
  Verb,      ///< the verbs (or rdma_cm) call the event makes
  QpState,   ///< the state the event's QP enters
};

/// Which event a checkpoint asks before: the first event after the previous checkpoint's
/// event (the first of the scenario for the first checkpoint) that matches every field set.
struct EventMatch {
  std::optional<sim::TraceKind> kind;
  std::optional<sim::Narrative> what;
  int host = -1;                          ///< 0 host A, 1 host B, -1 either
  std::string_view opcodeContains;        ///< frame events: the IBTA opcode name contains it
  std::string_view textContains;          ///< Note events: their text contains it
  std::uint64_t frameNumber = 0;          ///< frame events: this 1-based frame number (0: any)
  std::optional<sim::CephStepKind> ceph;  ///< Ceph recordings: the messenger's step
  /// FrameSent events: what becomes of the frame ("lost", "discarded", "dropped",
  /// "accepted"), read from the later events of the recording; empty: any
  std::string_view fate;
};

/// One checkpoint of a lesson.
struct CheckpointSpec {
  CheckpointKind kind = CheckpointKind::Opcode;
  EventMatch before;
  const char* question = nullptr;  ///< source text (context "Lesson")
  const char* hint = nullptr;      ///< shown after a wrong answer (context "Lesson")
};

/// One lesson of the Lessons menu.
struct LessonSpec {
  std::string_view id;        ///< e.g. "send-recv" (rdmascope --lesson ID)
  const char* title;          ///< source text (context "Lesson")
  std::string_view scenario;  ///< the built-in it runs
  const char* intro;          ///< the narration shown before the first step
  const char* outro;          ///< the narration shown once every checkpoint is answered
  std::vector<CheckpointSpec> checkpoints;
};

/// The lessons in the primer's order.
const std::vector<LessonSpec>& lessons();
/// The lesson with this id, or nullptr.
const LessonSpec* findLesson(std::string_view id);
/// True when the lesson's scenario is a built-in of this build (builtInScenarios()).
bool lessonAvailable(const LessonSpec& lesson);

/// One possible answer. Its text is a source string (context "Lesson") with %1 replaced by
/// `arg` (a host's name, an opcode's IBTA name, a state...).
struct LessonChoice {
  std::string key;  ///< what checkAnswer compares
  const char* text = "%1";
  std::string arg;
};

/// A checkpoint placed on a recording.
struct Checkpoint {
  const CheckpointSpec* spec = nullptr;
  /// The event it asks before: stepping holds at event - 1 until it is answered.
  std::size_t event = 0;
  /// The event that shows the answer (the frame's fate for Delivery, else `event`).
  std::size_t shownAt = 0;
  std::vector<LessonChoice> choices;  ///< empty for a typed answer (Psn)
  std::string answer;                 ///< the right choice's key; Psn: the PSN in decimal
};

/// A lesson placed on a recording of its scenario.
struct LessonPlan {
  const LessonSpec* lesson = nullptr;
  std::vector<Checkpoint> checkpoints;
};

/// Places every checkpoint of `lesson` on `rec` (recorded into `frames`) and computes its answer
/// and choices. False with `error` set when a checkpoint's event is not in the recording.
bool planLesson(const LessonSpec& lesson, const ScenarioRecording& rec, const FrameStore& frames,
                LessonPlan& out, std::string& error);

/// True when `given` is the checkpoint's answer: a choice's key, or for a PSN a number in
/// decimal or hexadecimal ("0x1a2b3c").
bool checkAnswer(const Checkpoint& checkpoint, std::string_view given);

/// The headers of a frame, outermost first ("Ethernet / IPv4 / UDP / BTH").
std::string frameStack(const FrameStore& frames, std::size_t frame);

}  // namespace rdmascope::ui
