import type { FastifyPluginAsync } from "fastify";
import { CONTROL_PREFIX as p } from "../../app-hooks";
import { AdvanceSchema, SpeedSchema } from "../../control-schemas";
import type { ControlDeps } from "./deps";

/** The virtual clock. */
export const timeControl =
  ({ clock }: ControlDeps): FastifyPluginAsync =>
  async (app) => {
    const timeView = () => ({ now: clock.iso(), nowMs: Math.floor(clock.now()), factor: clock.speed });
    app.get(`${p}/time`, async () => timeView());
    app.post<{ Body: { ms: number } }>(
      `${p}/time/advance`,
      { schema: { body: AdvanceSchema } },
      async (req) => {
        clock.advance(req.body.ms);
        return timeView();
      },
    );
    app.put<{ Body: { factor: number } }>(
      `${p}/time/speed`,
      { schema: { body: SpeedSchema } },
      async (req) => {
        clock.setSpeed(req.body.factor);
        return timeView();
      },
    );
  };
