import type { UiEvent } from './ui-event.js';

/** What a finished (or still running) call came to. */
export type UiVerdict = 'running' | 'waiting' | 'succeeded' | 'denied' | 'failed';

/** The timeline's filters; each absent one lets everything through. */
export interface UiTimelineFilter {
  readonly tool?: string;
  readonly verdict?: string;
  readonly session?: string;
}

/** The events of the calls that match every filter, oldest first. */
export function filterTimeline(
  events: readonly UiEvent[],
  filter: UiTimelineFilter,
): readonly UiEvent[] {
  const verdicts = filter.verdict === undefined ? undefined : verdictsOf(events);
  return events.filter(
    (event) =>
      (filter.tool === undefined || event.toolId === filter.tool) &&
      (filter.session === undefined || event.sessionId === filter.session) &&
      (verdicts === undefined || verdicts.get(event.callId) === filter.verdict),
  );
}

/** Each call's verdict from its latest step: a denial at the gate is `denied`, not `failed`. */
export function verdictsOf(events: readonly UiEvent[]): Map<string, UiVerdict> {
  const verdicts = new Map<string, UiVerdict>();
  for (const event of events) {
    const before = verdicts.get(event.callId);
    verdicts.set(event.callId, stepVerdict(event, before));
  }
  return verdicts;
}

function stepVerdict(event: UiEvent, before: UiVerdict | undefined): UiVerdict {
  switch (event.step) {
    case 'called':
      return 'running';
    case 'approval_requested':
      return 'waiting';
    case 'approval_decided':
      return event.outcome === 'denied' ? 'denied' : 'running';
    case 'result':
      if (event.success) return 'succeeded';
      return before === 'denied' || event.errorCode === 'tool_denied' ? 'denied' : 'failed';
  }
}
