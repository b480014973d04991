import type { UiEvent, UiEventInput } from './ui-event.js';

/** Events a hub keeps for a page that connects late (or reconnects). */
export const DEFAULT_UI_EVENT_CAPACITY = 1000;

/** Options of `UiEventHub`. */
export interface UiEventHubOptions {
  readonly capacity?: number;
  readonly now?: () => number;
}

/**
 * The source of the page's live stream: numbers and stamps each event, keeps the last `capacity`
 * of them (older ones are dropped, so memory stays bounded however long serve runs) and hands
 * each to every subscriber. A subscriber that throws is removed, never retried.
 */
export class UiEventHub {
  readonly #capacity: number;
  readonly #now: () => number;
  readonly #ring: UiEvent[] = [];
  readonly #listeners = new Set<(event: UiEvent) => void>();
  #seq = 0;

  constructor(options: UiEventHubOptions = {}) {
    const { capacity = DEFAULT_UI_EVENT_CAPACITY, now = Date.now } = options;
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new TypeError('toolhost: the ui event capacity must be a positive integer');
    this.#capacity = capacity;
    this.#now = now;
  }

  /** Records one event and delivers it; returns it numbered. */
  publish(input: UiEventInput): UiEvent {
    this.#seq += 1;
    const event = Object.freeze({
      ...input,
      seq: this.#seq,
      at: input.at ?? this.#now(),
    }) as UiEvent;
    this.#ring.push(event);
    if (this.#ring.length > this.#capacity)
      this.#ring.splice(0, this.#ring.length - this.#capacity);
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        this.#listeners.delete(listener);
      }
    }
    return event;
  }

  /** The kept events after `afterSeq` (all kept ones by default), oldest first. */
  recent(afterSeq = 0): readonly UiEvent[] {
    return this.#ring.filter((event) => event.seq > afterSeq);
  }

  subscribe(listener: (event: UiEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Live subscribers: a dropped slow page shows up here as one fewer. */
  get subscriberCount(): number {
    return this.#listeners.size;
  }
}
