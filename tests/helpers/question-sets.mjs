// question-sets.mjs — question sets the engine and renderer tests share: a list longer than the
// rows, a prompt taller than the screen, options whose previews are taller than the screen.

export const LONG_LIST = {
  questions: [
    {
      id: "fw",
      label: "Framework",
      prompt: "Which framework should we use?",
      options: [
        "Express.js",
        "Fastify",
        "Hono",
        "Koa",
        "NestJS",
        "Next.js",
        "Remix",
        "SvelteKit",
        "Nuxt",
        "Astro",
        "Elysia",
        "AdonisJS",
        "Sails",
        "Meteor",
        "Feathers",
      ].map((label, i) => ({
        value: `fw${i + 1}`,
        label,
        description: i % 4 === 0 ? `Framework number ${i + 1}` : undefined,
      })),
    },
  ],
};

export const LONG_PROMPT = {
  questions: [
    {
      id: "pick",
      label: "Pick",
      prompt: `FIRST-LINE ${Array.from({ length: 300 }, (_, i) => `w${i + 1}`).join(" ")} LAST-WORD`,
      options: [{ value: "a", label: "Alpha", description: "the first" }, "Beta", "Gamma"],
    },
  ],
};

export const TALL_PREVIEW = {
  questions: [
    {
      id: "layout",
      prompt: "Which schema should we generate?",
      options: [
        {
          value: "tall",
          label: "Tall schema",
          preview: Array.from({ length: 40 }, (_, i) => `column_${i + 1} integer not null`).join("\n"),
        },
        { value: "short", label: "Short schema", preview: "id integer\nname text" },
      ],
    },
  ],
};
