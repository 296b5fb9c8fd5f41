// Demo polls, seeded through the running API rather than as SQL: a published poll is opened in its
// PollTally Durable Object (its window, options and eligible voters), which only the API's publish
// does. Idempotent: a poll whose title is already there is left alone (so are its ballots).

const PASSWORD = "warga-demo-2026";

async function signIn(base, email) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = await res.json();
  if (!res.ok) {
    throw new Error(`demo polls: sign-in of ${email} answered ${res.status} ${JSON.stringify(body)}`);
  }
  return { Authorization: `Bearer ${body.accessToken}`, "Content-Type": "application/json" };
}

const DAY = 86_400_000;

/** One RT's demo polls: an open one with a few ballots, an open one nobody has voted in, one still to come. */
function pollsOf(now) {
  return [
    {
      poll: {
        title: "Kenaikan iuran keamanan menjadi Rp60.000 per bulan",
        description:
          "Satpam malam bertambah satu orang mulai Januari. Usulan pengurus: iuran keamanan naik dari " +
          "Rp50.000 menjadi Rp60.000 per rumah per bulan.",
        options: ["Setuju", "Tidak setuju", "Abstain"],
        startsAt: new Date(now - DAY).toISOString(),
        endsAt: new Date(now + 6 * DAY).toISOString(),
        quorum: { kind: "percent", value: 50 },
        resultsVisibility: "always",
        status: "aktif",
      },
      // Residents who have already voted, and how (option index).
      ballots: [
        ["warga1", 0],
        ["warga2", 0],
        ["warga3", 1],
      ],
    },
    {
      // Open to every resident: nobody has voted yet, so each sees the ballot; results after closing.
      poll: {
        title: "Kegiatan 17 Agustus tahun ini",
        description: "Pilih paling banyak dua lomba yang ingin diadakan panitia tahun ini.",
        options: ["Balap karung", "Tarik tambang", "Makan kerupuk", "Panjat pinang"],
        startsAt: new Date(now - DAY).toISOString(),
        endsAt: new Date(now + 10 * DAY).toISOString(),
        multipleChoice: true,
        maxChoices: 2,
        resultsVisibility: "after_close",
        status: "aktif",
      },
      ballots: [],
    },
    {
      poll: {
        title: "Jadwal kerja bakti bulan depan",
        description: "Pilih hari kerja bakti membersihkan selokan dan taman RT.",
        options: ["Sabtu pagi", "Minggu pagi"],
        startsAt: new Date(now + 2 * DAY).toISOString(),
        endsAt: new Date(now + 9 * DAY).toISOString(),
        anonymous: true,
        status: "aktif",
      },
      ballots: [],
    },
  ];
}

/** Seeds the demo polls of rt01 and rt02 on the API at `base`; returns how many it created. */
export async function seedPolls(base, now = Date.now()) {
  let created = 0;
  for (const rt of ["rt01", "rt02"]) {
    const staff = await signIn(base, `sekretaris.${rt}@warga.test`);
    const listed = await (await fetch(`${base}/api/musyawarah?limit=100`, { headers: staff })).json();
    const titles = new Set((listed.items ?? []).map((p) => p.title));
    for (const { poll, ballots } of pollsOf(now)) {
      if (titles.has(poll.title)) {
        continue;
      }
      const res = await fetch(`${base}/api/musyawarah`, {
        method: "POST",
        headers: staff,
        body: JSON.stringify(poll),
      });
      const body = await res.json();
      if (res.status !== 201) {
        throw new Error(
          `demo polls: creating "${poll.title}" answered ${res.status} ${JSON.stringify(body)}`,
        );
      }
      created++;
      for (const [who, option] of ballots) {
        const voter = await signIn(base, `${who}.${rt}@warga.test`);
        await fetch(`${base}/api/musyawarah/${body.id}/vote`, {
          method: "POST",
          headers: voter,
          body: JSON.stringify({ optionIds: [body.options[option].id] }),
        });
      }
    }
  }
  return created;
}
